import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "chai";
import { READ_SURFACES } from "../../src/read/surfaces";
import { PAGE_CSP } from "../../src/web/headers";
import { formatUsd, formatUsdCompact } from "../../src/web/format";
import { IDS } from "../helpers/read/seedMarket";
import { TEST_ATTESTER } from "../helpers/service/app";
import { getPage, HOSTILE, INJECT_ORIGIN, OTHER_WALLET, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

/** A URL with data in the fixture for each page path of the surface table that needs a parameter or a query. */
const SAMPLE_URLS: Record<string, string> = {
  "/app/pools/:pool": `/app/pools/${IDS.e}`,
  "/app/compare": `/app/compare?pools=${IDS.a}&pools=${IDS.e}`,
};

/**
 * Every page of the dapp (the sign-in page aside): the pages of the read surface table (src/read/surfaces.ts), each
 * once (a page that serves several readers, the pool's or the model's, has an entry per reader).
 */
const PAGES = [
  ...new Set(
    READ_SURFACES.flatMap(({ page }) => {
      if (page === null) return [];
      if (page.path.includes("/:") && !(page.path in SAMPLE_URLS))
        throw new Error(`give ${page.path} a URL in SAMPLE_URLS`);
      return [SAMPLE_URLS[page.path] ?? page.path];
    }),
  ),
];

/** The page's text with tags and runs of white space folded, for "the page says X" checks. */
function text(body: string): string {
  return body
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&amp;/g, "&");
}

describe("dapp pages over app.inject (real SQLite, market fixture)", function () {
  // Alert targets on loopback (plain http) are allowed, as in the demo: nothing is delivered in these tests.
  const web = useWebApp({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let cookie: string;

  before(async function () {
    cookie = await signInCookie(web.app, WALLET);
  });

  describe("without a session", function () {
    for (const url of PAGES) {
      it(`GET ${url.split("?")[0]} redirects (303) to the sign-in page with next=`, async function () {
        const response = await getPage(web.app, url);
        expect(response.statusCode).to.equal(303);
        expect(response.headers.location).to.equal(`/app/sign-in?next=${encodeURIComponent(url)}`);
      });
    }

    it("serves the sign-in page with the page headers and no navigation", async function () {
      const response = await getPage(web.app, "/app/sign-in?next=/app/volume");
      expect(response.statusCode).to.equal(200);
      expect(response.headers["content-security-policy"]).to.equal(PAGE_CSP);
      expect(response.headers["cache-control"]).to.equal("no-store");
      expect(response.body).to.include('data-next="/app/volume"');
      expect(response.body).not.to.include('aria-label="Pages"');
      expect(response.body).to.include('data-action="sign-in"');
    });

    it("never sends the browser off-site after sign-in (next is kept to a path on this site)", async function () {
      for (const next of ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
        const response = await getPage(web.app, `/app/sign-in?next=${encodeURIComponent(next)}`);
        expect(response.body).to.include('data-next="/app/pools"');
      }
    });

    it("answers the dapp's JSON routes 401 SESSION_REQUIRED, and the open API 200", async function () {
      const keys = await getPage(web.app, "/app/api/keys");
      expect(keys.statusCode).to.equal(401);
      expect(keys.json().error.code).to.equal("SESSION_REQUIRED");
      expect((await getPage(web.app, "/app/api/liquidity-requests")).statusCode).to.equal(401);
      expect((await getPage(web.app, "/api/v1/pools")).statusCode).to.equal(200);
    });
  });

  describe("with a session", function () {
    for (const url of PAGES) {
      it(`GET ${url.split("?")[0]}: 200 HTML with the CSP, the wallet in the header and the bundle`, async function () {
        const response = await getPage(web.app, url, cookie);
        expect(response.statusCode, response.body.slice(0, 300)).to.equal(200);
        expect(response.headers["content-type"]).to.equal("text/html; charset=utf-8");
        expect(response.headers["content-security-policy"]).to.equal(PAGE_CSP);
        expect(response.headers["cache-control"]).to.equal("no-store");
        expect(response.headers["x-content-type-options"]).to.equal("nosniff");
        expect(response.body).to.include(`data-address="${WALLET.address}"`);
        expect(response.body).to.match(/<script src="\/app\/assets\/app\.[0-9a-f]{16}\.js" defer><\/script>/);
        expect(response.body).not.to.match(/<script>|\sstyle=|\son[a-z]+=/);
      });
    }

    it("redirects /app/ and the sign-in page to the pools when signed in", async function () {
      expect((await getPage(web.app, "/app/", cookie)).headers.location).to.equal("/app/pools");
      const signIn = await getPage(web.app, "/app/sign-in?next=/app/roadmap", cookie);
      expect(signIn.statusCode).to.equal(303);
      expect(signIn.headers.location).to.equal("/app/roadmap");
    });

    it("redirects a signed-in visitor only to a next that can stand in a Location header", async function () {
      // Each `next` as sent in the query (percent-encoded): the emoji, CR/LF, NUL, a space and Latin-1 (which Node would
      // let through as a raw byte) after decoding, and the open redirects; all fall back to /app/ (then the pools).
      for (const next of [
        "/%F0%9F%98%80",
        "/app/%0D%0ASet-Cookie:%20x=1",
        "/app/%00",
        "/app/a%20b",
        "/%C3%A9",
        "//evil.example",
        "/%2F/evil.example",
      ]) {
        const response = await getPage(web.app, `/app/sign-in?next=${next}`, cookie);
        expect(response.statusCode, next).to.equal(303);
        expect(response.headers.location, next).to.equal("/app/pools");
        expect(response.headers["set-cookie"], next).to.equal(undefined);
      }
      // A normal path, with a query kept percent-encoded, is still honoured.
      const next = "/app/compare?pools=eip155%3A1%3A0xab&pools=x";
      const response = await getPage(web.app, `/app/sign-in?next=${encodeURIComponent(next)}`, cookie);
      expect(response.statusCode).to.equal(303);
      expect(response.headers.location).to.equal(next);
      // Without a session the sign-in page carries the same fallback.
      expect((await getPage(web.app, "/app/sign-in?next=/%F0%9F%98%80")).body).to.include('data-next="/app/pools"');
    });

    it("prints store text as text: a hostile pool symbol is escaped on every page that shows it", async function () {
      for (const url of ["/app/pools", "/app/liquidity-map", "/app/compare", "/app/liquidity-requests"]) {
        const body = (await getPage(web.app, url, cookie)).body;
        expect(body, url).to.include("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&quot;&#39;");
        expect(body, url).not.to.include(HOSTILE.symbol);
      }
    });

    it("shows the pools reader's figures: the same fresh total and stale flags as GET /api/v1/pools", async function () {
      const api = (await getPage(web.app, "/api/v1/pools")).json();
      const body = (await getPage(web.app, "/app/pools", cookie)).body;
      const page = text(body);
      // Compact amounts, the exact value in the title and the data value.
      expect(page).to.include(`Fresh total depth ${formatUsdCompact(api.total.depthUsd)} (${api.total.pools} pools)`);
      expect(body).to.include(`value="${api.total.depthUsd}" title="${formatUsd(api.total.depthUsd)}"`);
      expect(page).to.include(
        `Held out (stale) ${formatUsdCompact(api.heldOut.depthUsd)} (${api.heldOut.pools.length} pools)`,
      );
      // (A pool without an attestation because of its stale depth says "No attestation: stale depth" as well.)
      expect(page.match(/ stale (?!depth)/g)?.length).to.equal(
        api.pools.filter((p: { stale: boolean }) => p.stale).length + 1,
      );
      // Each pool's latest claim: its horizon and confidence in its row, the reason where none was issued.
      type Pool = { symbol: string; horizon: number | null; confidence: number | null };
      const attested = (api.pools as Pool[]).filter((p) => p.horizon !== null);
      expect(attested.length, "the fixture has attested pools").to.be.greaterThan(0);
      for (const pool of attested) {
        expect(page).to.match(new RegExp(`${pool.horizon} days?( expired)? ${Math.round(pool.confidence! * 100)} %`));
      }
    });

    it("shows the volume reader's daily series: every day of GET /api/v1/volume, in its table", async function () {
      const api = (await getPage(web.app, "/api/v1/volume?days=7")).json();
      const page = text((await getPage(web.app, "/app/volume?days=7", cookie)).body);
      for (const day of api.days as { date: string; volumeUsd: number | null; pools: number }[]) {
        const volume = day.volumeUsd === null ? "no data" : formatUsd(day.volumeUsd);
        expect(page).to.include(`${day.date} ${volume} ${day.pools}`);
      }
    });

    it("pins the pool page's attester to what GET /api/v1/attester serves", async function () {
      const { attester } = (await getPage(web.app, "/api/v1/attester")).json();
      expect(attester).to.equal(TEST_ATTESTER);
      const body = (await getPage(web.app, `/app/pools/${IDS.e}`, cookie)).body;
      expect(body).to.include(`data-attester="${attester}"`);
      expect(body).to.include(`data-pool-id="${IDS.e}"`);
      expect(body).to.include('class="floor"');
    });

    it("answers a pool without an attestation with its page and reason, and bad ids as the API does", async function () {
      const none = await getPage(web.app, `/app/pools/${IDS.g}`, cookie);
      expect(none.statusCode).to.equal(200);
      expect(text(none.body)).to.include("No attestation yet Why:");
      const unknown = await getPage(web.app, "/app/pools/eip155:1:0x1234567890123456789012345678901234567890", cookie);
      expect(unknown.statusCode).to.equal(404);
      expect(unknown.body).to.include("POOL_NOT_FOUND");
      const malformed = await getPage(web.app, "/app/pools/not-a-pool", cookie);
      expect(malformed.statusCode).to.equal(400);
      expect(malformed.body).to.include("INVALID_POOL_ID");
      expect(malformed.headers["content-security-policy"]).to.equal(PAGE_CSP);
    });

    it("compares in the order asked, marks the largest fresh value per field, and refuses five pools", async function () {
      const body = (await getPage(web.app, `/app/compare?pools=${IDS.a},${IDS.e}`, cookie)).body;
      expect(body.indexOf(`/app/pools/${encodeURIComponent(IDS.a)}"`)).to.be.lessThan(
        body.indexOf(`/app/pools/${encodeURIComponent(IDS.e)}"`),
      );
      // a is an AMM pool, e a lending reserve: yield marks each kind's largest, named as such (5 tags, not 4).
      expect(body.match(/class="tag largest"/g)?.length).to.equal(5);
      expect(text(body)).to.include("4.50 % APY largest APY of the AMM pools");
      expect(text(body)).to.match(/supply [\d.]+ % APY .*largest supply rate of the lending pools/);
      // The product's own figures: each pool's horizon, confidence and floor (or why it has none).
      expect(text(body)).to.match(/Horizon\s+Confidence\s+Floor/);
      const five = [IDS.a, IDS.b, IDS.c, IDS.e, IDS.h].map((id) => `pools=${id}`).join("&");
      const refused = await getPage(web.app, `/app/compare?${five}`, cookie);
      expect(refused.statusCode).to.equal(400);
      expect(text(refused.body)).to.include("A comparison takes at most 4 pools; 5 were named.");
      const repeated = await getPage(web.app, `/app/compare?pools=${IDS.a}&pools=1:${IDS.a.split(":")[2]}`, cookie);
      expect(repeated.statusCode).to.equal(400);
    });

    it("answers a bad query and an unknown page with an HTML error page, /app/api paths with JSON", async function () {
      const bad = await getPage(web.app, "/app/volume?days=0", cookie);
      expect(bad.statusCode).to.equal(400);
      expect(bad.headers["content-type"]).to.equal("text/html; charset=utf-8");
      const missing = await getPage(web.app, "/app/nowhere", cookie);
      expect(missing.statusCode).to.equal(404);
      expect(missing.headers["content-type"]).to.equal("text/html; charset=utf-8");
      const api = await getPage(web.app, "/app/api/nowhere", cookie);
      expect(api.statusCode).to.equal(404);
      expect(api.json().error.code).to.equal("ROUTE_NOT_FOUND");
    });

    it("pages the activity log with the API's cursor", async function () {
      const api = (await getPage(web.app, "/api/v1/activity?limit=50")).json();
      const body = (await getPage(web.app, "/app/activity", cookie)).body;
      expect(body).to.include(`cursor=${api.next}`);
      const older = await getPage(web.app, `/app/activity?limit=50&cursor=${api.next}`, cookie);
      expect(older.statusCode).to.equal(200);
      expect(text(older.body)).to.include("This page reaches the oldest event.");
      const forged = await getPage(web.app, "/app/activity?cursor=nope", cookie);
      expect(forged.statusCode).to.equal(400);
    });
  });

  describe("the client bundle", function () {
    it("serves the script and the stylesheet under content-hashed names, cached a year, with 304s", async function () {
      const page = (await getPage(web.app, "/app/sign-in")).body;
      const script = /src="(\/app\/assets\/app\.[0-9a-f]{16}\.js)"/.exec(page)![1];
      const style = /href="(\/app\/assets\/styles\.[0-9a-f]{16}\.css)"/.exec(page)![1];
      const js = await getPage(web.app, script);
      expect(js.statusCode).to.equal(200);
      expect(js.headers["content-type"]).to.equal("text/javascript; charset=utf-8");
      expect(js.headers["cache-control"]).to.equal("public, max-age=31536000, immutable");
      const css = await getPage(web.app, style);
      expect(css.headers["content-type"]).to.equal("text/css; charset=utf-8");
      const again = await web.app.inject({ method: "GET", url: script, headers: { "if-none-match": js.headers.etag } });
      expect(again.statusCode).to.equal(304);
      expect((await getPage(web.app, "/app/assets/app.js")).statusCode).to.equal(404);
    });
  });

  describe("the dapp's JSON routes: keys and own requests", function () {
    let otherCookie: string;
    before(async function () {
      otherCookie = await signInCookie(web.app, OTHER_WALLET);
    });

    const send = (method: "POST" | "DELETE", url: string, who: string, origin: string | null, payload?: unknown) =>
      web.app.inject({
        method,
        url,
        headers: { cookie: who, ...(origin === null ? {} : { origin }) },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    it("refuses a state change from another origin or without Origin (403 ORIGIN_REFUSED, the CSRF rule)", async function () {
      for (const origin of ["http://evil.example", "null", "http://127.0.0.1:8081", null]) {
        const create = await send("POST", "/app/api/keys", cookie, origin, { label: "csrf" });
        expect(create.statusCode, String(origin)).to.equal(403);
        expect(create.json().error.code).to.equal("ORIGIN_REFUSED");
        const revoke = await send("DELETE", "/app/api/keys/anything", cookie, origin);
        expect(revoke.statusCode).to.equal(403);
      }
      const { keys } = (await getPage(web.app, "/app/api/keys", cookie)).json();
      expect(keys).to.deep.equal([]);
    });

    it("lets the signed-in wallet write a request without a key (POST /app/api/liquidity-requests): same rules, CSRF, its own list", async function () {
      // A wallet of its own (the other tests count the two test wallets' requests).
      const third = await signInCookie(web.app, privateKeyToAccount(generatePrivateKey()));
      const body = { chainId: 1, pool: IDS.c.replace("eip155:8453:", "eip155:1:"), amountUsd: 2000, horizonDays: 14 };
      for (const origin of ["http://evil.example", null]) {
        const refused = await send("POST", "/app/api/liquidity-requests", cookie, origin, body);
        expect(refused.statusCode, String(origin)).to.equal(403);
      }
      const anonymous = await web.app.inject({
        method: "POST",
        url: "/app/api/liquidity-requests",
        headers: { origin: INJECT_ORIGIN },
        payload: body,
      });
      expect(anonymous.statusCode).to.equal(401);
      // The keyed write's own rules: a string amount is refused, naming the field (no coercion).
      const coerced = await send("POST", "/app/api/liquidity-requests", third, INJECT_ORIGIN, {
        chainId: 1,
        pool: IDS.a,
        amountUsd: "2000",
        horizonDays: 14,
      });
      expect(coerced.statusCode).to.equal(400);
      expect(coerced.json().error.field).to.equal("amountUsd");
      const written = await send("POST", "/app/api/liquidity-requests", third, INJECT_ORIGIN, {
        chainId: 1,
        pool: IDS.a,
        amountUsd: 2000,
        horizonDays: 14,
      });
      expect(written.statusCode).to.equal(201);
      expect(written.json().apiKeyId).to.match(/^wallet:0x[0-9a-f]{40}$/);
      const own = (await getPage(web.app, "/app/api/liquidity-requests", third)).json();
      expect(own.requests.map((r: { id: string }) => r.id)).to.deep.equal([written.json().id]);
      const page = (await getPage(web.app, `/app/liquidity-requests?created=${written.json().id}`, third)).body;
      expect(text(page)).to.match(/Request stored: \$2,000 for 14 days on WETH-USDC · Uniswap V2 · Ethereum ?\./);
      expect(page).not.to.include('id="api-key"');
    });

    it("creates a key (shown once), which writes a request that only its wallet lists, until revoked", async function () {
      const created = await send("POST", "/app/api/keys", cookie, INJECT_ORIGIN, { label: "bot" });
      expect(created.statusCode).to.equal(201);
      expect(created.headers["cache-control"]).to.equal("no-store");
      const { id, key } = created.json();
      const listed = (await getPage(web.app, "/app/api/keys", cookie)).json();
      expect(listed.keys).to.have.length(1);
      expect(listed.keys[0]).to.deep.include({ id, label: "bot", revokedAt: null });
      expect(JSON.stringify(listed)).not.to.include(key);

      const write = await web.app.inject({
        method: "POST",
        url: "/api/v1/liquidity-requests",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        payload: JSON.stringify({ chainId: 1, pool: IDS.a, amountUsd: 1000, horizonDays: 30, note: "<i>mine</i>" }),
      });
      expect(write.statusCode).to.equal(201);
      const own = (await getPage(web.app, "/app/api/liquidity-requests", cookie)).json();
      expect(own.requests.map((r: { id: string; keyLabel: string }) => [r.id, r.keyLabel])).to.deep.equal([
        [write.json().id, "bot"],
      ]);
      expect((await getPage(web.app, "/app/api/liquidity-requests", otherCookie)).json().requests).to.deep.equal([]);
      const page = (await getPage(web.app, `/app/liquidity-requests?created=${write.json().id}`, cookie)).body;
      expect(page).to.include("&lt;i&gt;mine&lt;/i&gt;");
      expect(page).to.include('class="just-created"');

      const foreign = await send("DELETE", `/app/api/keys/${id}`, otherCookie, INJECT_ORIGIN);
      expect(foreign.json()).to.deep.equal({ id, revoked: false });
      const revoked = await send("DELETE", `/app/api/keys/${id}`, cookie, INJECT_ORIGIN);
      expect(revoked.json()).to.deep.equal({ id, revoked: true });
      const twice = await send("DELETE", `/app/api/keys/${id}`, cookie, INJECT_ORIGIN);
      expect(twice.json()).to.deep.equal({ id, revoked: false });
      const after = await web.app.inject({
        method: "POST",
        url: "/api/v1/liquidity-requests",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        payload: JSON.stringify({ chainId: 1, pool: IDS.a, amountUsd: 1000, horizonDays: 30 }),
      });
      expect(after.statusCode).to.equal(401);
      expect((await getPage(web.app, "/app/api/liquidity-requests", cookie)).json().requests).to.have.length(1);
    });

    it("checks the key's body: a label over 100 characters or an unknown member is a 400", async function () {
      const long = await send("POST", "/app/api/keys", cookie, INJECT_ORIGIN, { label: "x".repeat(101) });
      expect(long.statusCode).to.equal(400);
      const extra = await send("POST", "/app/api/keys", cookie, INJECT_ORIGIN, { label: "a", owner: "0x0" });
      expect(extra.statusCode).to.equal(400);
    });

    it("subscribes the wallet to alerts (secret shown once), lists only its own, deletes, and checks Origin", async function () {
      const body = { url: "http://127.0.0.1:9/hook", kinds: ["pool.stale", "attestation.issued"] };
      const foreign = await send("POST", "/app/api/alert-subscriptions", cookie, "http://evil.example", body);
      expect(foreign.statusCode).to.equal(403);
      const created = await send("POST", "/app/api/alert-subscriptions", cookie, INJECT_ORIGIN, body);
      expect(created.statusCode, created.body).to.equal(201);
      const { id, secret } = created.json();
      expect(secret).to.match(/^whsec_/);
      const mine = (await getPage(web.app, "/app/api/alert-subscriptions", cookie)).json().subscriptions;
      expect(mine.map((s: { id: string; kinds: string[] }) => [s.id, s.kinds])).to.deep.equal([[id, body.kinds]]);
      expect(JSON.stringify(mine)).not.to.include(secret);
      expect((await getPage(web.app, "/app/api/alert-subscriptions", otherCookie)).json().subscriptions).to.deep.equal(
        [],
      );
      const page = (await getPage(web.app, "/app/alerts", cookie)).body;
      expect(page).to.include(`data-subscription-id="${id}"`);
      expect(page).not.to.include(secret);
      const theirs = await send("DELETE", `/app/api/alert-subscriptions/${id}`, otherCookie, INJECT_ORIGIN);
      expect(theirs.statusCode).to.equal(404);
      const badKind = await send("POST", "/app/api/alert-subscriptions", cookie, INJECT_ORIGIN, {
        url: body.url,
        kinds: ["pool.nope"],
      });
      expect(badKind.statusCode).to.equal(400);
      expect(badKind.json().error.field).to.equal("kinds");
      const deleted = await send("DELETE", `/app/api/alert-subscriptions/${id}`, cookie, INJECT_ORIGIN);
      expect(deleted.statusCode).to.equal(204);
      expect((await getPage(web.app, "/app/api/alert-subscriptions", cookie)).json().subscriptions).to.deep.equal([]);
    });

    it("ends with the session: after sign-out the pages redirect and the JSON routes answer 401", async function () {
      const third = await signInCookie(web.app, WALLET);
      const out = await web.app.inject({
        method: "POST",
        url: "/auth/logout",
        headers: { cookie: third, origin: INJECT_ORIGIN },
      });
      expect(out.statusCode).to.be.within(200, 204);
      expect((await getPage(web.app, "/app/keys", third)).statusCode).to.equal(303);
      expect((await getPage(web.app, "/app/api/keys", third)).statusCode).to.equal(401);
    });
  });
});
