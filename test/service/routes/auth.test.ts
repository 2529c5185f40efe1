import { expect } from "chai";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import {
  parseSignature,
  recoverMessageAddress,
  serializeCompactSignature,
  signatureToCompactSignature,
  type Hex,
} from "viem";
import { serializeErc6492Signature } from "viem/utils";
import { hashSessionId } from "../../../src/auth/sessionId";
import { startServer } from "../../../src/service/server";
import { loadConfig } from "../../../src/config/loadConfig";
import type { Store } from "../../../src/storage/openStore";
import { freshPostgresUrl } from "../../../testkit/postgres";
import { openStore } from "../../../src/storage/openStore";
import {
  Client,
  OTHER_WALLET,
  ORIGIN,
  WALLET,
  buildAuthApp,
  messageFor,
  sessionCookie,
  withV,
  type Clock,
} from "../../helpers/auth/siweApp";
import { NOW, TEST_ATTESTER, openTempStore } from "../../helpers/service/app";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const iso = (unix: number) => new Date(unix * 1000);

function expectError(response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  expect(response.statusCode, response.body).to.equal(status);
  const { error } = response.json();
  expect(error.code).to.equal(code);
  return error;
}

async function countSessions(store: Store): Promise<number> {
  return (await store.db.selectFrom("sessions").select("id_sha256").execute()).length;
}

describe("auth routes: Sign-In with Ethereum (real SQLite)", function () {
  let store: Store;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  const clock: Clock = { now: NOW };
  let client: Client;

  before(async function () {
    const temp = await openTempStore();
    store = temp.store;
    cleanup = temp.cleanup;
    // A high sign-in limit: this suite signs in many times from one address (the limit has its own suite).
    app = await buildAuthApp(store, clock, { RATE_LIMIT_SIGN_IN_MAX: "600" });
    client = new Client(app);
  });
  beforeEach(() => {
    clock.now = NOW;
  });
  after(async function () {
    await app?.close();
    await cleanup();
  });

  describe("GET /auth/nonce", function () {
    it("answers a fresh 32-hex-digit nonce, stored with a 10-minute expiry, never cached", async function () {
      const response = await client.get("/auth/nonce");
      expect(response.statusCode).to.equal(200);
      expect(response.headers["cache-control"]).to.equal("no-store");
      const { nonce } = response.json();
      expect(nonce).to.match(/^[0-9a-f]{32}$/);
      expect(await client.nonce()).to.not.equal(nonce);
      const row = await store.db.selectFrom("siwe_nonces").selectAll().where("nonce", "=", nonce).executeTakeFirst();
      expect(row).to.deep.include({ created_at: NOW, expires_at: NOW + 600 });
    });
  });

  describe("POST /auth/verify: a good sign-in", function () {
    it("answers the session and sets an opaque HttpOnly, SameSite=Lax cookie (no Secure on loopback http)", async function () {
      const response = await client.signIn();
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json()).to.deep.equal({ address: WALLET.address, chainId: 1, expiresAt: NOW + 86_400 });
      expect(response.headers["cache-control"]).to.equal("no-store");
      const [cookie] = response.cookies;
      expect(cookie).to.deep.include({
        name: "attest_session",
        path: "/",
        httpOnly: true,
        sameSite: "Lax",
        maxAge: 86_400,
      });
      expect(cookie.secure).to.equal(undefined);
      expect(cookie.value).to.match(/^[A-Za-z0-9_-]{43}$/);
      const setCookie = String(response.headers["set-cookie"]);
      expect(setCookie).to.not.match(/Secure|Domain=/i);
      // Only the SHA-256 of the id is stored.
      const rows = await store.db.selectFrom("sessions").selectAll().execute();
      expect(rows.map((row) => row.id_sha256)).to.include(hashSessionId(cookie.value));
      expect(rows.map((row) => row.id_sha256)).to.not.include(cookie.value);

      const session = await client.get("/auth/session", sessionCookie(response));
      expect(session.statusCode).to.equal(200);
      expect(session.json()).to.deep.equal({ address: WALLET.address, chainId: 1, expiresAt: NOW + 86_400 });
    });

    it("accepts v = 0/1 (what some wallets send) as well as 27/28", async function () {
      const message = messageFor(await client.nonce());
      const signature = await WALLET.signMessage({ message });
      const v01 = withV(signature, parseSignature(signature).yParity!);
      const response = await client.verify({ message, signature: v01 });
      expect(response.statusCode, response.body).to.equal(200);
    });

    it("binds the session to the message's chain when it is accepted (8453), and refuses chain 137", async function () {
      const base = await client.signIn((nonce) => messageFor(nonce, { chainId: 8453 }));
      expect(base.json().chainId).to.equal(8453);
      const polygon = await client.signIn((nonce) => messageFor(nonce, { chainId: 137 }));
      expect(expectError(polygon, 401, "SIWE_CHAIN_REFUSED").field).to.equal("chainId");
    });

    it("ends the session at the message's Expiration Time when that comes before the session lifetime", async function () {
      const response = await client.signIn((nonce) => messageFor(nonce, { expirationTime: iso(NOW + 3600) }));
      expect(response.json().expiresAt).to.equal(NOW + 3600);
      expect(response.cookies[0].maxAge).to.equal(3600);
    });

    it("accepts a message that names the scheme (http://127.0.0.1:8080 wants you…)", async function () {
      const response = await client.signIn((nonce) => messageFor(nonce, { scheme: "http" }));
      expect(response.statusCode, response.body).to.equal(200);
    });
  });

  describe("POST /auth/verify: refusals of the message", function () {
    const refusals: [string, Parameters<typeof messageFor>[1], string, string][] = [
      ["a domain of another site", { domain: "evil.example" }, "SIWE_DOMAIN_MISMATCH", "domain"],
      ["the right host on another port", { domain: "127.0.0.1:8081" }, "SIWE_DOMAIN_MISMATCH", "domain"],
      ["the right host without its port", { domain: "127.0.0.1" }, "SIWE_DOMAIN_MISMATCH", "domain"],
      ["another spelling of the host (localhost)", { domain: "localhost:8080" }, "SIWE_DOMAIN_MISMATCH", "domain"],
      ["a scheme that is not the origin's", { scheme: "https" }, "SIWE_DOMAIN_MISMATCH", "scheme"],
      ["a URI of another origin", { uri: "http://evil.example/app/" }, "SIWE_URI_MISMATCH", "uri"],
      ["a URI on another port", { uri: "http://127.0.0.1:8081/app/" }, "SIWE_URI_MISMATCH", "uri"],
      ["a URI with another scheme", { uri: "https://127.0.0.1:8080/app/" }, "SIWE_URI_MISMATCH", "uri"],
      ["a URI with user information", { uri: "http://user@127.0.0.1:8080/" }, "SIWE_URI_MISMATCH", "uri"],
      ["a URI that is not a URL of an origin", { uri: "urn:uuid:6e8bc430-9c3a-11d9-9669" }, "SIWE_URI_MISMATCH", "uri"],
      ["an expired message", { expirationTime: iso(NOW - 1) }, "SIWE_EXPIRED", "expirationTime"],
      ["a message expiring right now", { expirationTime: iso(NOW) }, "SIWE_EXPIRED", "expirationTime"],
      ["a Not Before in the future", { notBefore: iso(NOW + 60) }, "SIWE_NOT_YET_VALID", "notBefore"],
      ["an Issued At beyond the 300 s skew", { issuedAt: iso(NOW + 301) }, "SIWE_ISSUED_IN_FUTURE", "issuedAt"],
      [
        "a message issued a year ago (with a fresh nonce)",
        { issuedAt: iso(NOW - 365 * 86_400) },
        "SIWE_EXPIRED",
        "issuedAt",
      ],
      ["a message issued just over 900 s ago", { issuedAt: iso(NOW - 901) }, "SIWE_EXPIRED", "issuedAt"],
      [
        "an Expiration Time over 7 days ahead",
        { expirationTime: iso(NOW + 7 * 86_400 + 1) },
        "SIWE_EXPIRATION_TOO_FAR",
        "expirationTime",
      ],
      ["an unaccepted chain", { chainId: 10 }, "SIWE_CHAIN_REFUSED", "chainId"],
    ];
    for (const [what, overrides, code, field] of refusals) {
      it(`refuses ${what} (401 ${code}) and opens no session`, async function () {
        const before = await countSessions(store);
        const response = await client.signIn((nonce) => messageFor(nonce, overrides));
        expect(expectError(response, 401, code).field).to.equal(field);
        expect(response.headers["set-cookie"]).to.equal(undefined);
        expect(await countSessions(store)).to.equal(before);
      });
    }

    it("accepts the boundaries: Issued At exactly 300 s ahead, Not Before now, Expiration 7 days ahead", async function () {
      const response = await client.signIn((nonce) =>
        messageFor(nonce, { issuedAt: iso(NOW + 300), notBefore: iso(NOW), expirationTime: iso(NOW + 7 * 86_400) }),
      );
      expect(response.statusCode, response.body).to.equal(200);
    });

    it("refuses a domain with user information (viem will not even write one)", async function () {
      const message = messageFor(await client.nonce()).replace("127.0.0.1:8080 wants", "user@127.0.0.1:8080 wants");
      const response = await client.verify({ message, signature: await WALLET.signMessage({ message }) });
      expect(expectError(response, 401, "SIWE_DOMAIN_MISMATCH").field).to.equal("domain");
    });

    it("refuses an address that is not in EIP-55 form (400 INVALID_SIWE_MESSAGE), even when signed", async function () {
      const message = messageFor(await client.nonce()).replace(WALLET.address, WALLET.address.toLowerCase());
      const response = await client.verify({ message, signature: await WALLET.signMessage({ message }) });
      expect(expectError(response, 400, "INVALID_SIWE_MESSAGE").field).to.equal("address");
    });

    it("refuses a message whose address is not the signer's (401 SIGNATURE_INVALID)", async function () {
      const response = await client.signIn((nonce) => messageFor(nonce, { address: OTHER_WALLET.address }), WALLET);
      expectError(response, 401, "SIGNATURE_INVALID");
    });

    it("refuses a text that does not parse (400), and a body without a signature (400 INVALID_REQUEST)", async function () {
      const message = messageFor(await client.nonce()) + "\n";
      expectError(
        await client.verify({ message, signature: await WALLET.signMessage({ message }) }),
        400,
        "INVALID_SIWE_MESSAGE",
      );
      const missing = await app.inject({
        method: "POST",
        url: "/auth/verify",
        headers: { origin: ORIGIN },
        payload: { message },
      });
      expect(expectError(missing, 400, "INVALID_REQUEST").field).to.equal("signature");
    });

    it("takes only application/json (a text/plain form post is 415)", async function () {
      const response = await app.inject({
        method: "POST",
        url: "/auth/verify",
        headers: { origin: ORIGIN, "content-type": "text/plain" },
        payload: "message=x&signature=y",
      });
      expectError(response, 415, "UNSUPPORTED_MEDIA_TYPE");
    });
  });

  describe("POST /auth/verify: a message changed after signing", function () {
    // Each edit makes an otherwise acceptable message (its nonce is a live one): only the signature refuses it.
    const edits: [string, Parameters<typeof messageFor>[1], (text: string, nonce: string) => string][] = [
      ["domain", { domain: "evil.example" }, (t) => t.replace("evil.example wants", "127.0.0.1:8080 wants")],
      ["scheme", {}, (t) => `http://${t}`],
      ["address", { address: OTHER_WALLET.address }, (t) => t.replace(OTHER_WALLET.address, WALLET.address)],
      [
        "statement",
        { statement: "Give evil.example my funds." },
        (t) => t.replace("Give evil.example my funds.", "Hello."),
      ],
      ["statement (removed)", {}, (t) => t.replace("\nSign in to the attestation dapp.\n", "\n")],
      ["uri", { uri: "http://evil.example/" }, (t) => t.replace("http://evil.example/", `${ORIGIN}/`)],
      ["chainId", { chainId: 137 }, (t) => t.replace("Chain ID: 137", "Chain ID: 1")],
      ["issuedAt", {}, (t) => t.replace("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z")],
      [
        "expirationTime",
        { expirationTime: iso(NOW - 60) },
        (t) => t.replace("2025-12-31T23:59:00.000Z", "2026-01-02T00:00:00.000Z"),
      ],
      ["expirationTime (removed)", { expirationTime: iso(NOW - 60) }, (t) => t.replace(/\nExpiration Time: .*/, "")],
      [
        "notBefore",
        { notBefore: iso(NOW + 3600) },
        (t) => t.replace("2026-01-01T01:00:00.000Z", "2026-01-01T00:00:00.000Z"),
      ],
      ["requestId", { requestId: "a" }, (t) => t.replace("Request ID: a", "Request ID: b")],
      ["resources", { resources: ["https://evil.example/"] }, (t) => t.replace("https://evil.example/", `${ORIGIN}/`)],
    ];
    for (const [field, overrides, edit] of edits) {
      it(`refuses an edited ${field} (401 SIGNATURE_INVALID)`, async function () {
        const nonce = await client.nonce();
        const signed = messageFor(nonce, overrides);
        const signature = await WALLET.signMessage({ message: signed });
        const edited = edit(signed, nonce);
        expect(edited).to.not.equal(signed);
        expectError(await client.verify({ message: edited, signature }), 401, "SIGNATURE_INVALID");
      });
    }

    it("refuses a message signed for one live nonce and edited to name another", async function () {
      const [first, second] = [await client.nonce(), await client.nonce()];
      const signed = messageFor(first);
      const signature = await WALLET.signMessage({ message: signed });
      const response = await client.verify({ message: signed.replace(first, second), signature });
      expectError(response, 401, "SIGNATURE_INVALID");
    });
  });

  describe("POST /auth/verify: nonces", function () {
    it("refuses a nonce the service never issued (401 NONCE_INVALID)", async function () {
      const message = messageFor("0123456789abcdef0123456789abcdef");
      const response = await client.verify({ message, signature: await WALLET.signMessage({ message }) });
      expect(expectError(response, 401, "NONCE_INVALID").reason).to.equal("unknown or already used");
    });

    it("refuses a nonce used once already (a replayed sign-in)", async function () {
      const message = messageFor(await client.nonce());
      const body = { message, signature: await WALLET.signMessage({ message }) };
      expect((await client.verify(body)).statusCode).to.equal(200);
      expectError(await client.verify(body), 401, "NONCE_INVALID");
    });

    it("spends the nonce on a refused attempt too: it cannot be retried", async function () {
      const nonce = await client.nonce();
      const wrong = messageFor(nonce, { domain: "evil.example" });
      expectError(
        await client.verify({ message: wrong, signature: await WALLET.signMessage({ message: wrong }) }),
        401,
        "SIWE_DOMAIN_MISMATCH",
      );
      const right = messageFor(nonce);
      expectError(
        await client.verify({ message: right, signature: await WALLET.signMessage({ message: right }) }),
        401,
        "NONCE_INVALID",
      );
    });

    it("refuses a nonce 10 minutes after it was issued, and accepts it one second before", async function () {
      const [late, inTime] = [await client.nonce(), await client.nonce()];
      clock.now = NOW + 599;
      const ok = messageFor(inTime, { issuedAt: iso(clock.now) });
      expect(
        (await client.verify({ message: ok, signature: await WALLET.signMessage({ message: ok }) })).statusCode,
      ).to.equal(200);
      clock.now = NOW + 600;
      const expired = messageFor(late, { issuedAt: iso(clock.now) });
      const response = await client.verify({
        message: expired,
        signature: await WALLET.signMessage({ message: expired }),
      });
      expect(expectError(response, 401, "NONCE_INVALID").reason).to.equal("expired");
    });

    it("gives one session to two concurrent sign-ins with the same nonce", async function () {
      const message = messageFor(await client.nonce());
      const body = { message, signature: await WALLET.signMessage({ message }) };
      const before = await countSessions(store);
      const responses = await Promise.all([client.verify(body), client.verify(body), client.verify(body)]);
      expect(responses.map((r) => r.statusCode).sort()).to.deep.equal([200, 401, 401]);
      expect(await countSessions(store)).to.equal(before + 1);
    });
  });

  describe("POST /auth/verify: signatures (EOAs only)", function () {
    async function signed(): Promise<{ message: string; signature: Hex }> {
      const message = messageFor(await client.nonce());
      return { message, signature: await WALLET.signMessage({ message }) };
    }

    it("refuses the 64-byte EIP-2098 compact form (400 SIGNATURE_MALFORMED)", async function () {
      const { message, signature } = await signed();
      const compact = serializeCompactSignature(signatureToCompactSignature(parseSignature(signature)));
      expect(compact.length).to.equal(2 + 128);
      const error = expectError(await client.verify({ message, signature: compact }), 400, "SIGNATURE_MALFORMED");
      expect(error.reason).to.match(/EIP-2098/);
    });

    it("refuses an ERC-6492 wrapped signature (a smart account), even around a good EOA signature", async function () {
      const { message, signature } = await signed();
      const wrapped = serializeErc6492Signature({
        address: "0xcA11bde05977b3631167028862bE2a173976CA11",
        data: "0xdeadbeef",
        signature,
      });
      const error = expectError(await client.verify({ message, signature: wrapped }), 400, "SIGNATURE_MALFORMED");
      expect(error.reason).to.match(/ERC-6492/);
    });

    it("refuses v outside {0, 1, 27, 28}", async function () {
      for (const v of [2, 29, 37, 38]) {
        const { message, signature } = await signed();
        const error = expectError(
          await client.verify({ message, signature: withV(signature, v) }),
          400,
          "SIGNATURE_MALFORMED",
        );
        expect(error.reason).to.equal(`v is ${v}; it must be 27, 28, 0 or 1`);
      }
    });

    it("refuses the high-s twin of a good signature, though it recovers to the same address", async function () {
      const { message, signature } = await signed();
      const { r, s, yParity } = parseSignature(signature);
      const highS = `${r}${(N - BigInt(s)).toString(16).padStart(64, "0")}${yParity === 0 ? "1c" : "1b"}` as Hex;
      expect(await recoverMessageAddress({ message, signature: highS })).to.equal(WALLET.address);
      const error = expectError(await client.verify({ message, signature: highS }), 400, "SIGNATURE_MALFORMED");
      expect(error.reason).to.match(/high-s/);
    });

    it("refuses a good signature of another message (401 SIGNATURE_INVALID)", async function () {
      const { message } = await signed();
      const response = await client.verify({ message, signature: await WALLET.signMessage({ message: "hello" }) });
      expectError(response, 401, "SIGNATURE_INVALID");
    });
  });

  describe("sessions", function () {
    it("GET /auth/session without a cookie, with a malformed or unknown one: 401 SESSION_REQUIRED", async function () {
      expectError(await client.get("/auth/session"), 401, "SESSION_REQUIRED");
      expectError(await client.get("/auth/session", "attest_session=nope"), 401, "SESSION_REQUIRED");
      expectError(await client.get("/auth/session", `attest_session=${"A".repeat(43)}`), 401, "SESSION_REQUIRED");
    });

    it("ends a session at its expiry", async function () {
      const cookie = sessionCookie(await client.signIn());
      clock.now = NOW + 86_399;
      expect((await client.get("/auth/session", cookie)).statusCode).to.equal(200);
      clock.now = NOW + 86_400;
      expectError(await client.get("/auth/session", cookie), 401, "SESSION_REQUIRED");
    });

    it("POST /auth/logout ends the session on the server: every copy of the cookie stops working", async function () {
      const cookie = sessionCookie(await client.signIn());
      const copy = `${cookie}`;
      const logout = await client.post("/auth/logout", { cookie });
      expect(logout.statusCode).to.equal(204);
      const cleared = logout.cookies.find((c) => c.name === "attest_session");
      expect(cleared).to.deep.include({ value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: "Lax" });
      expectError(await client.get("/auth/session", copy), 401, "SESSION_REQUIRED");
      expectError(await client.get("/app/api/probe", copy), 401, "SESSION_REQUIRED");
      // Signing out again, or without a session, is not an error.
      expect((await client.post("/auth/logout", { cookie: copy })).statusCode).to.equal(204);
      expect((await client.post("/auth/logout")).statusCode).to.equal(204);
    });

    it("gives a new session id at every sign-in and ends the one the browser had (session fixation)", async function () {
      const planted = `attest_session=${"P".repeat(43)}`;
      const first = await client.signIn(undefined, WALLET, { cookie: planted });
      const firstCookie = sessionCookie(first);
      expect(firstCookie).to.not.equal(planted);
      expectError(await client.get("/auth/session", planted), 401, "SESSION_REQUIRED");

      const second = await client.signIn(undefined, WALLET, { cookie: firstCookie });
      const secondCookie = sessionCookie(second);
      expect(secondCookie).to.not.equal(firstCookie);
      expectError(await client.get("/auth/session", firstCookie), 401, "SESSION_REQUIRED");
      expect((await client.get("/auth/session", secondCookie)).statusCode).to.equal(200);
    });
  });

  describe("the Origin check (CSRF rule) on POSTs", function () {
    for (const [what, origin] of [
      ["no Origin header", null],
      ["another site", "http://evil.example"],
      ["the right host on another port", "http://127.0.0.1:8081"],
      ["another scheme", "https://127.0.0.1:8080"],
      ['"null" (a sandboxed or file page)', "null"],
    ] as const) {
      it(`refuses POST /auth/verify with ${what} (403 ORIGIN_REFUSED) without spending the nonce`, async function () {
        const message = messageFor(await client.nonce());
        const body = { message, signature: await WALLET.signMessage({ message }) };
        expectError(await client.verify(body, { origin }), 403, "ORIGIN_REFUSED");
        expect((await client.verify(body)).statusCode).to.equal(200);
      });
    }

    it("checks the Origin before reading the body: a cross-origin form post is 403, not 400 or 415", async function () {
      const response = await app.inject({
        method: "POST",
        url: "/auth/verify",
        headers: { origin: "http://evil.example", "content-type": "text/plain" },
        payload: "message=x&signature=y",
      });
      expectError(response, 403, "ORIGIN_REFUSED");
    });

    it("refuses POST /auth/logout from another origin, and the session stays", async function () {
      const cookie = sessionCookie(await client.signIn());
      expectError(await client.post("/auth/logout", { cookie, origin: "http://evil.example" }), 403, "ORIGIN_REFUSED");
      expectError(await client.post("/auth/logout", { cookie, origin: null }), 403, "ORIGIN_REFUSED");
      expect((await client.get("/auth/session", cookie)).statusCode).to.equal(200);
    });
  });

  describe("the hooks the dapp uses", function () {
    it("requirePageSession: 303 to /app/sign-in?next=<path> without a session, the page with one", async function () {
      const response = await client.get("/app/probe?pool=eip155%3A1%3A0xab&x=1");
      expect(response.statusCode).to.equal(303);
      expect(response.headers.location).to.equal(
        `/app/sign-in?next=${encodeURIComponent("/app/probe?pool=eip155%3A1%3A0xab&x=1")}`,
      );
      const cookie = sessionCookie(await client.signIn());
      const page = await client.get("/app/probe", cookie);
      expect(page.statusCode).to.equal(200);
      expect(page.json()).to.deep.equal({ page: WALLET.address });
    });

    it("requireSession: 401 JSON without a session; request.session with one", async function () {
      expectError(await client.get("/app/api/probe"), 401, "SESSION_REQUIRED");
      const signIn = await client.signIn((nonce) => messageFor(nonce, { chainId: 42161 }));
      const cookie = sessionCookie(signIn);
      const response = await client.get("/app/api/probe", cookie);
      expect(response.json()).to.deep.equal({
        id: hashSessionId(cookie.split("=")[1]),
        address: WALLET.address,
        chainId: 42161,
        expiresAt: NOW + 86_400,
      });
    });

    it("requireSameOrigin: a dapp POST from another origin is 403 even with a live session", async function () {
      const cookie = sessionCookie(await client.signIn());
      expectError(
        await client.post("/app/api/probe", { cookie, origin: "http://evil.example" }),
        403,
        "ORIGIN_REFUSED",
      );
      expectError(await client.post("/app/api/probe", { cookie, origin: null }), 403, "ORIGIN_REFUSED");
      expect((await client.post("/app/api/probe", { cookie })).json()).to.deep.equal({ ok: true });
    });
  });
});

describe("auth routes: the sign-in rate limit (real SQLite)", function () {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;

  before(async function () {
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    app = await buildAuthApp(temp.store, { now: NOW }, { RATE_LIMIT_SIGN_IN_MAX: "3" });
  });
  after(async function () {
    await app?.close();
    await cleanup();
  });

  it("limits one client's verify attempts; another client still signs in", async function () {
    const attacker = new Client(app, "10.0.0.1");
    const user = new Client(app, "10.0.0.2");
    const bad = { message: "not a message", signature: "0x00" };
    for (let i = 0; i < 3; i++) expectError(await attacker.verify(bad), 400, "INVALID_SIWE_MESSAGE");
    const limited = expectError(await attacker.verify(bad), 429, "RATE_LIMITED");
    expect(limited.retryAfterMs).to.be.a("number");
    const response = await user.signIn();
    expect(response.statusCode, response.body).to.equal(200);
  });

  it("limits nonces per client the same way, and leaves GET /auth/session on the general limit", async function () {
    const greedy = new Client(app, "10.0.0.3");
    for (let i = 0; i < 3; i++) await greedy.nonce();
    expectError(await greedy.get("/auth/nonce"), 429, "RATE_LIMITED");
    for (let i = 0; i < 5; i++) expectError(await greedy.get("/auth/session"), 401, "SESSION_REQUIRED");
    expect((await new Client(app, "10.0.0.4").get("/auth/nonce")).statusCode).to.equal(200);
  });
});

describe("auth routes: the cookie off loopback", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  before(async function () {
    const temp = await openTempStore();
    store = temp.store;
    cleanup = temp.cleanup;
  });
  after(async () => cleanup());

  for (const origin of ["https://attest.example", "http://attest.example", "https://127.0.0.1:8443"]) {
    it(`is Secure and __Host- prefixed for PUBLIC_ORIGIN=${origin}`, async function () {
      const app = await buildAuthApp(store, { now: NOW }, { PUBLIC_ORIGIN: origin });
      try {
        const client = new Client(app);
        const host = new URL(origin).host;
        const response = await app.inject({
          method: "POST",
          url: "/auth/verify",
          headers: { origin },
          payload: await (async () => {
            const message = messageFor(await client.nonce(), { domain: host, uri: `${origin}/app/` });
            return { message, signature: await WALLET.signMessage({ message }) };
          })(),
        });
        expect(response.statusCode, response.body).to.equal(200);
        const [cookie] = response.cookies;
        expect(cookie).to.deep.include({ name: "__Host-attest_session", secure: true, httpOnly: true, path: "/" });
        expect(cookie.domain).to.equal(undefined);
        const session = await app.inject({
          method: "GET",
          url: "/auth/session",
          headers: { cookie: `__Host-attest_session=${cookie.value}` },
        });
        expect(session.statusCode).to.equal(200);
        // The loopback cookie name is not read on a secure origin.
        const plain = await app.inject({
          method: "GET",
          url: "/auth/session",
          headers: { cookie: `attest_session=${cookie.value}` },
        });
        expectError(plain, 401, "SESSION_REQUIRED");
      } finally {
        await app.close();
      }
    });
  }
});

describe("auth routes: a real server on a real port, origin from the socket", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let url: string;
  before(async function () {
    const temp = await openTempStore();
    store = temp.store;
    cleanup = temp.cleanup;
    const config = loadConfig({ env: { LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1" } });
    ({ app, url } = await startServer({ store, config, attester: { address: TEST_ATTESTER, registry: null } }));
  });
  after(async function () {
    await app?.close();
    await cleanup();
  });

  it("signs in over HTTP with fetch, reads the session and signs out", async function () {
    const origin = new URL(url).origin;
    const { nonce } = await (await fetch(`${origin}/auth/nonce`)).json();
    const message = messageFor(nonce, { domain: new URL(url).host, uri: `${origin}/app/`, issuedAt: new Date() });
    const signature = await WALLET.signMessage({ message });
    const verify = await fetch(`${origin}/auth/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ message, signature }),
    });
    expect(verify.status, await verify.clone().text()).to.equal(200);
    const setCookie = verify.headers.get("set-cookie")!;
    // Max-Age is what is left of the session's 86,400 s: a second may tick between the session's row and the header.
    const shape = /^attest_session=[A-Za-z0-9_-]{43}; Max-Age=(\d+); Path=\/; HttpOnly; SameSite=Lax$/;
    expect(setCookie).to.match(shape);
    expect(Number(shape.exec(setCookie)![1])).to.be.within(86_399, 86_400);
    const cookie = setCookie.split(";")[0];
    const session = await fetch(`${origin}/auth/session`, { headers: { cookie } });
    expect(await session.json()).to.include({ address: WALLET.address, chainId: 1 });
    expect((await fetch(`${origin}/auth/logout`, { method: "POST", headers: { cookie, origin } })).status).to.equal(
      204,
    );
    const ended = await fetch(`${origin}/auth/session`, { headers: { cookie } });
    expect(ended.status).to.equal(401);
    expect(((await ended.json()) as { error: { code: string } }).error.code).to.equal("SESSION_REQUIRED");
  });
});

describe("auth routes on PostgreSQL (throwaway local cluster)", function () {
  let store: Store;
  let app: FastifyInstance;
  const clock: Clock = { now: NOW };
  before(async function () {
    this.timeout(60_000);
    store = await openStore({ databaseUrl: await freshPostgresUrl() });
    app = await buildAuthApp(store, clock);
  });
  after(async function () {
    await app?.close();
    await store?.close();
  });

  it("signs in, gives one session to concurrent sign-ins with one nonce, and signs out", async function () {
    const client = new Client(app);
    const message = messageFor(await client.nonce());
    const body = { message, signature: await WALLET.signMessage({ message }) };
    const responses = await Promise.all([client.verify(body), client.verify(body), client.verify(body)]);
    expect(responses.map((r) => r.statusCode).sort()).to.deep.equal([200, 401, 401]);
    expect(await countSessions(store)).to.equal(1);
    const cookie = sessionCookie(responses.find((r) => r.statusCode === 200)!);
    expect((await client.get("/auth/session", cookie)).json().address).to.equal(WALLET.address);
    expect((await client.post("/auth/logout", { cookie })).statusCode).to.equal(204);
    expectError(await client.get("/auth/session", cookie), 401, "SESSION_REQUIRED");
  });
});
