import { expect } from "chai";
import { formatConfidence, formatUsd, formatUsdCompact, formatTime } from "../../src/web/format";
import { IDS } from "../helpers/read/seedMarket";
import { D_FEED_FROM, D_GAP_DAYS } from "../helpers/web/seedPoolPages";
import { getPage, INJECT_ORIGIN, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

/** The page's text with tags and runs of white space folded. */
function text(body: string): string {
  return body
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'");
}

/** The text of each row of the table captioned `caption` (its cells' text, folded). */
function tableRows(body: string, caption: string): string[] {
  const start = body.indexOf(caption);
  expect(start, `a table captioned "${caption}"`).to.be.greaterThan(-1);
  const table = body.slice(start, body.indexOf("</table>", start));
  const tbody = table.slice(table.indexOf("<tbody>"));
  return [...tbody.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => text(m[1]).trim());
}

/** Every table cell whose whole text is a raw `eip155:…` id: a pool shown by its id alone. */
function rawIdCells(body: string): string[] {
  return [...body.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)]
    .map((m) => text(m[1]).trim())
    .filter((cell) => /^eip155:[0-9]+:0x[0-9a-fA-F]{40}$/.test(cell));
}

type HistoryDay = { date: string; lowestDepthUsd: number | null; source: string };
type HistoryClaim = { issuedAt: number; horizon: number; confidence: number; floorUsd: number; settlesAt: number };

/**
 * The pool pages (docs/dapp.md) over app.inject: every tracked pool has a page (stale and unattested ones too) with its
 * history, the same numbers as the history API; the pools list sorts and filters on the server; pools are named, never
 * a raw id alone; amounts are compact with the exact value on hover.
 */
describe("pool pages: history, stale and unattested pools, the list's sort and filters, names", function () {
  const web = useWebApp();
  let cookie: string;

  before(async function () {
    cookie = await signInCookie(web.app, WALLET);
  });

  describe("a pool's page", function () {
    it("gives the stale, unattested pool a page (200): since when it is stale, why no attestation, its history", async function () {
      const response = await getPage(web.app, `/app/pools/${IDS.d}`, cookie);
      expect(response.statusCode).to.equal(200);
      const page = text(response.body);
      const pools = (await getPage(web.app, "/api/v1/pools")).json();
      const d = pools.pools.find((p: { id: string }) => p.id === IDS.d);
      expect(d.stale).to.equal(true);
      expect(page).to.include(`Stale since ${formatTime(d.observedAt + pools.freshnessWindowS)}`);
      expect(page).to.include(`Depth ${formatUsdCompact(d.depthUsd)} ${formatTime(d.observedAt)}`);
      // The reason is the reader's own: the API's 404 NO_ATTESTATION says the same.
      const api = await getPage(web.app, `/api/v1/pool/${IDS.d}`);
      expect(api.statusCode).to.equal(404);
      const reason = String(api.json().error.message).split(" yet: ")[1];
      expect(reason.length).to.be.greaterThan(10);
      expect(page).to.include(`No attestation yet Why: ${reason}`);
      // Its history: every day of the history API, with the feed's backfilled days marked and the gaps as no data.
      const history = (await getPage(web.app, `/api/v1/pool/${IDS.d}/history`)).json();
      const rows = tableRows(response.body, "Daily lows (the chart&#39;s data)");
      expect(rows).to.deep.equal(
        (history.days as HistoryDay[]).map((day) =>
          day.lowestDepthUsd === null
            ? `${day.date} no data — none`
            : `${day.date} ${formatUsd(day.lowestDepthUsd)} ${day.source} none`,
        ),
      );
      expect(rows.filter((row) => row.includes("feed-daily")).length).to.equal(90 - D_FEED_FROM + 1);
      for (const gap of D_GAP_DAYS) expect(rows).to.include(`${gap} no data — none`);
      expect(response.body).not.to.include("data-verify");
    });

    it("gives a tracked pool that was never observed a page too, and keeps an unknown id a 404", async function () {
      const never = await getPage(web.app, `/app/pools/${IDS.g}`, cookie);
      expect(never.statusCode).to.equal(200);
      expect(text(never.body)).to.include("Never observed.");
      expect(tableRows(never.body, "Daily lows").every((row) => row.includes("no data"))).to.equal(true);
      const unknown = await getPage(web.app, "/app/pools/eip155:1:0x1234567890123456789012345678901234567890", cookie);
      expect(unknown.statusCode).to.equal(404);
      expect(unknown.body).to.include("POOL_NOT_FOUND");
      expect((await getPage(web.app, `/app/pools/${IDS.e}?days=0`, cookie)).statusCode).to.equal(400);
      expect((await getPage(web.app, `/app/pools/${IDS.e}?range=2w`, cookie)).statusCode).to.equal(400);
      // A range asks the history reader for its days; `range` wins over `days`.
      const week = (await getPage(web.app, `/app/pools/${IDS.e}?range=7d&days=60`, cookie)).body;
      expect(week.match(/<circle\s+class="(obs|feed)"|<rect\s+class="nodata"/g)?.length ?? 0).to.equal(7);
      expect(week).to.match(/href="\?range=7d#history-heading"\s+data-range="7d"\s+aria-current="true"/);
      expect(week).to.include('<script type="application/json" data-crosshair>');
    });

    it("draws the history chart and lists its table with the history API's numbers (daily lows, claims' floors)", async function () {
      const history = (await getPage(web.app, `/api/v1/pool/${IDS.e}/history?days=60`)).json();
      const body = (await getPage(web.app, `/app/pools/${IDS.e}?days=60`, cookie)).body;
      const days = history.days as HistoryDay[];
      const claims = history.attestations as HistoryClaim[];
      expect(claims.length, "an older claim and the current one").to.equal(2);
      const rows = tableRows(body, "Daily lows (the chart&#39;s data)");
      expect(rows.length).to.equal(60);
      rows.forEach((row, i) => {
        const day = days[i];
        expect(
          row.startsWith(`${day.date} ${day.lowestDepthUsd === null ? "no data" : formatUsd(day.lowestDepthUsd)}`),
        ).to.equal(true, row);
        const covering = claims.filter(
          (c) =>
            c.issuedAt < Date.parse(`${day.date}T00:00:00Z`) / 1000 + 86_400 &&
            c.settlesAt > Date.parse(`${day.date}T00:00:00Z`) / 1000,
        );
        for (const claim of covering) expect(row).to.include(`floor ${formatUsd(claim.floorUsd)}`);
        if (covering.length === 0) expect(row.endsWith("none")).to.equal(true, row);
      });
      // The chart: one point per day with a low, one floor segment per claim in range, named by its caption.
      const svg = body.slice(
        body.indexOf('<figure class="chart history">'),
        body.indexOf("</figure>", body.indexOf('<figure class="chart history">')),
      );
      expect(svg).to.include('role="img" aria-labelledby="history-caption"');
      expect(svg.match(/<circle\b/g)?.length).to.equal(days.filter((d) => d.lowestDepthUsd !== null).length);
      const floors = svg.slice(svg.indexOf('<g class="claims">'), svg.indexOf('<g class="lows">'));
      expect(floors.match(/<line\b/g)?.length).to.equal(2);
      expect(text(floors)).to.include(`floor ${formatUsdCompact(claims[1].floorUsd)} → `);
      const caption = text(svg.slice(svg.indexOf("<figcaption")));
      const lowest = Math.min(...days.flatMap((d) => (d.lowestDepthUsd === null ? [] : [d.lowestDepthUsd])));
      expect(caption).to.include(`Lowest ${formatUsd(lowest)} on`);
      for (const claim of claims) {
        expect(caption).to.include(
          `${claim.horizon} days at ${formatConfidence(claim.confidence)} confidence, floor ${formatUsd(claim.floorUsd)}`,
        );
      }
      expect(tableRows(body, "Claims issued over these days").length).to.equal(2);
    });

    it("shows a lending reserve's supply and borrow APY (from the APR the API gives, compounded each second as Aave's app does) and utilisation", async function () {
      const api = (await getPage(web.app, `/api/v1/compare?pools=${IDS.e}`)).json();
      expect(api.pools[0].lending).to.deep.include({ supplyAprPct: 3.2, borrowAprPct: 4.75, utilisation: 0.25 });
      const page = text((await getPage(web.app, `/app/pools/${IDS.e}`, cookie)).body);
      // (1 + 0.032 / 31,536,000)^31,536,000 − 1 = 3.25 %; for 4.75 % APR, 4.86 %.
      expect(page).to.include("Supply rate 3.25 % APY (3.20 % APR)");
      expect(page).to.include("Borrow rate 4.86 % APY (4.75 % APR)");
      expect(page).to.include("Utilisation 25.0 %");
      expect(page).to.include("with confidence 85 %");
      const map = text((await getPage(web.app, "/app/liquidity-map", cookie)).body);
      expect(map).to.include("supply 3.25 % APY (3.20 % APR) borrow 4.86 % APY (4.75 % APR) · utilisation 25.0 %");
      expect(map).to.include("4.50 % APY");
    });
  });

  describe("the pools list", function () {
    type Item = {
      id: string;
      symbol: string;
      chainId: number;
      protocol: string;
      depthUsd: number | null;
      confidence: number | null;
    };
    let api: { pools: Item[] };

    before(async function () {
      api = (await getPage(web.app, "/api/v1/pools")).json();
    });

    /** The pool ids of the list's rows, in order. */
    async function listed(query: string): Promise<string[]> {
      const response = await getPage(web.app, `/app/pools${query}`, cookie);
      expect(response.statusCode, response.body.slice(0, 200)).to.equal(200);
      const rows = response.body.slice(response.body.indexOf("<tbody>"));
      // The row header: the watchlist's star (a form), then the pool's label.
      const row =
        /<tr[^>]*>\s*<th scope="row">(?:<form class="watch-toggle"[\s\S]*?<\/form>\s*)?<a class="pool-label" href="[^"]+" title="([^"]+)"/g;
      return [...rows.matchAll(row)].map((m) => m[1]);
    }

    it("sorts on the server by depth, confidence and name, nulls last, with aria-sort on the sorted column", async function () {
      const byDepth = [...api.pools].sort((a, b) =>
        a.depthUsd === null
          ? 1
          : b.depthUsd === null
            ? -1
            : b.depthUsd - a.depthUsd || a.symbol.localeCompare(b.symbol),
      );
      expect(await listed("?sort=depth")).to.deep.equal(byDepth.map((p) => p.id));
      const ascending = await listed("?sort=depth&order=asc");
      const measured = api.pools.filter((p) => p.depthUsd !== null);
      expect(ascending.slice(0, measured.length)).to.deep.equal(
        measured.sort((a, b) => a.depthUsd! - b.depthUsd! || a.symbol.localeCompare(b.symbol)).map((p) => p.id),
      );
      expect(ascending.at(-1)).to.equal(IDS.g); // never observed: last either way
      const byConfidence = await listed("?sort=confidence&order=desc");
      expect(byConfidence.slice(0, 3).sort()).to.deep.equal([IDS.a, IDS.e, IDS.f].sort());
      const names = await listed("?sort=name");
      const symbols = names.map((id) => api.pools.find((p) => p.id === id)!.symbol.toLowerCase());
      expect(symbols).to.deep.equal([...symbols].sort((a, b) => a.localeCompare(b, "en")));
      const body = (await getPage(web.app, "/app/pools?sort=depth&order=asc", cookie)).body;
      expect(body).to.match(
        /<th scope="col"\s+class="num" aria-sort="ascending">\s*<a class="sort" href="\/app\/pools\?sort=depth&amp;order=desc"\s*>Depth/,
      );
      expect(body.match(/aria-sort=/g)?.length).to.equal(1);
      expect((await getPage(web.app, "/app/pools?sort=volume", cookie)).statusCode).to.equal(400);
    });

    it("filters by chain and protocol with a GET form (empty fields mean all)", async function () {
      expect(await listed("?chain=42161&protocol=&sort=&order=")).to.deep.equal(
        api.pools.filter((p) => p.chainId === 42161).map((p) => p.id),
      );
      expect(await listed("?protocol=aave-v3")).to.deep.equal(
        api.pools.filter((p) => p.protocol === "aave-v3").map((p) => p.id),
      );
      expect(await listed("?chain=1&protocol=aave-v3")).to.deep.equal([IDS.e]);
      const none = text((await getPage(web.app, "/app/pools?chain=10", cookie)).body);
      expect(none).to.include("No pool matches these filters.");
      const body = (await getPage(web.app, "/app/pools?chain=8453", cookie)).body;
      expect(body).to.include('<form class="inline filters" method="get" action="/app/pools">');
      expect(body).to.match(/<option value="8453"\s+selected>/);
      expect(text(body)).to.include(`Showing 2 of ${api.pools.length} pools.`);
    });

    it("prints depths compact, with the exact amount in the title and the data value", async function () {
      const body = (await getPage(web.app, "/app/pools", cookie)).body;
      for (const pool of api.pools.filter((p) => p.depthUsd !== null)) {
        expect(body).to.include(
          `<data class="amount" value="${pool.depthUsd}" title="${formatUsd(pool.depthUsd)}">${formatUsdCompact(pool.depthUsd)}</data>`,
        );
      }
    });
  });

  it("names pools (symbol · protocol · chain, the id in the title) on every page that lists them, never by a raw id alone", async function () {
    // A request of the wallet's own, so that the request list has a pool in it.
    const key = await web.app.inject({
      method: "POST",
      url: "/app/api/keys",
      headers: { cookie, origin: INJECT_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ label: "names" }),
    });
    const write = await web.app.inject({
      method: "POST",
      url: "/api/v1/liquidity-requests",
      headers: { authorization: `Bearer ${key.json().key}`, "content-type": "application/json" },
      payload: JSON.stringify({ chainId: 8453, pool: IDS.d, amountUsd: 1000, horizonDays: 30 }),
    });
    expect(write.statusCode).to.equal(201);
    const label = (id: string) =>
      new RegExp(`<a class="pool-label" href="/app/pools/${encodeURIComponent(id)}" title="${id}"`);
    const expected: Record<string, string[]> = {
      "/app/volume?days=7": [IDS.a, IDS.c], // by turnover; c held out (stale volume)
      "/app/liquidity-map": [IDS.d, IDS.e], // the calendar (d stale) and the chains
      "/app/launch": [], // the worst reserve in a gate's detail, checked below
      [`/app/compare?pools=${IDS.a},${IDS.e}`]: [IDS.a, IDS.e],
      "/app/liquidity-requests": [IDS.d],
      "/app/pools": [IDS.a, IDS.g],
    };
    for (const [url, ids] of Object.entries(expected)) {
      const body = (await getPage(web.app, url, cookie)).body;
      expect(rawIdCells(body), url).to.deep.equal([]);
      for (const id of ids) expect(body, `${url} names ${id}`).to.match(label(id));
    }
    const launch = (await getPage(web.app, "/app/launch", cookie)).body;
    expect(text(launch)).to.match(/Worst of \d+ reserves: a\w+ · Aave v3 · (Ethereum|Arbitrum One) \(lowest daily/);
    expect(text(launch)).not.to.match(/eip155:[0-9]+:0x[0-9a-f]{40} \(lowest/);
  });
});
