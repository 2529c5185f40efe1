import { expect } from "chai";
import { DEFAULT_CANDIDATES } from "../../src/model/horizon";
import { gradeClaims } from "../../src/attest/gradeClaims";
import type { GetAccuracyReturnType } from "../../src/read/getAccuracy";
import type { GetPoolClaimsReturnType, PoolClaim } from "../../src/read/getPoolClaims";
import { renderModelPage } from "../../src/web/pages/model";
import { formatConfidence, formatDay, formatUsd } from "../../src/web/format";
import { DAY, IDS, M, MARKET_NOW } from "../helpers/read/seedMarket";
import { insertAttestation } from "../helpers/service/app";
import { D_GAP_DAYS } from "../helpers/web/seedPoolPages";
import { getPage, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

/** The page's text with tags and runs of white space folded (and no space left before a comma or a full stop). */
function text(body: string): string {
  return body
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/ ([,.])/g, "$1")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .trim();
}

/** The text of each body row of the table captioned `caption`. */
function tableRows(body: string, caption: string): string[] {
  const start = body.indexOf(caption);
  expect(start, `a table captioned "${caption}"`).to.be.greaterThan(-1);
  const table = body.slice(start, body.indexOf("</table>", start));
  const tbody = table.slice(table.indexOf("<tbody>"));
  return [...tbody.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => text(m[1]));
}

/** The history chart's markup (the figure), and its claim marks as [issuedAt, outcome]. */
function historyFigure(body: string): { figure: string; marks: [number, string][] } {
  const start = body.indexOf('<figure class="chart history">');
  const figure = body.slice(start, body.indexOf("</figure>", start));
  const marks = [...figure.matchAll(/data-outcome="([a-z]+)" data-issued-at="(\d+)"/g)].map((m): [number, string] => [
    Number(m[2]),
    m[1],
  ]);
  return { figure, marks };
}

/**
 * The track record (issue 29) on the pages, over app.inject: the web fixture plus three claims on the stale pool d
 * (one that held, one that failed, one void over d's two days without data), graded by the service's own grader
 * (`gradeClaims`); the pool page lists and draws them as `GET /api/v1/pool/{pool}/claims` gives them, and the model
 * page sets `GET /api/v1/accuracy` beside the backtest.
 */
describe("track record on the pool and model pages (market fixture, graded by gradeClaims)", function () {
  const web = useWebApp();
  let cookie: string;

  before(async function () {
    // d's lows are $4.0M–$5.0M (seedPoolPages); a floor of 0.5 × the stated depth.
    const claims = [
      { daysAgo: 50, depth: 1_000_000 }, // floor $0.5M: held
      { daysAgo: 30, depth: 9_000_000 }, // floor $4.5M: a low below it, failed
      { daysAgo: 16, depth: 1_000_000 }, // its window covers d's days without data: void
    ];
    for (const { daysAgo, depth } of claims) {
      const issuedAt = MARKET_NOW - daysAgo * DAY;
      await insertAttestation(web.store, {
        chainId: 8453,
        address: M.d,
        issuedAt,
        expiry: issuedAt + DAY,
        horizonDays: 7,
        confidenceHundredths: 90,
      });
      await web.store.db
        .updateTable("attestations")
        .set({ depth_at_issuance_usd: depth })
        .where("address", "=", M.d)
        .where("issued_at", "=", issuedAt)
        .execute();
    }
    expect(await gradeClaims(web.store.db, { now: MARKET_NOW })).to.deep.equal({ held: 2, failed: 1, void: 1 });
    cookie = await signInCookie(web.app, WALLET);
  });

  /** A claim's row as the track record table prints it. */
  const row = (c: PoolClaim) =>
    [
      formatDay(c.issuedAt),
      `${c.horizon} days`,
      formatConfidence(c.confidence),
      formatUsd(c.floorUsd),
      formatDay(c.settlesAt),
      c.outcome,
      c.lowestDepthUsd === null ? "—" : `${formatUsd(c.lowestDepthUsd)} (${c.lowestDepthDate})`,
      c.outcome === "failed" ? c.lowestDepthDate : "—",
    ].join(" ");

  it("lists the pool's claims newest first with the claims API's outcomes, floors, lows and first failing day", async function () {
    const api = (await getPage(web.app, `/api/v1/pool/${IDS.d}/claims`)).json() as GetPoolClaimsReturnType;
    expect(api.claims.map((c) => c.outcome)).to.deep.equal(["void", "failed", "held"]);
    const body = (await getPage(web.app, `/app/pools/${IDS.d}`, cookie)).body;
    expect(tableRows(body, "The pool&#39;s claims, newest first, with their grades")).to.deep.equal(
      api.claims.map(row),
    );
    const page = text(body);
    expect(page).to.include(
      "Of the 3 claims listed (the pool's first attestation of each UTC day, the unit the accuracy record grades), 3 are graded: 1 held, 1 failed and 1 void",
    );
    expect(page).to.include("0 are pending");
    expect(body).to.include(`href="/api/v1/pool/${IDS.d}/claims"`);
    // The failed claim's first failing day is a day of its window whose observed low is below its floor.
    const failed = api.claims.find((c) => c.outcome === "failed")!;
    expect(failed.lowestDepthUsd).to.be.below(failed.floorUsd);
    // The void one covers d's days without data.
    const voided = api.claims.find((c) => c.outcome === "void")!;
    expect(D_GAP_DAYS.some((day) => day > formatDay(voided.issuedAt) && day <= formatDay(voided.settlesAt))).to.equal(
      true,
    );
  });

  it("draws each claim's floor on the history chart coloured by its grade, a cross on the first failing day, a legend", async function () {
    const api = (await getPage(web.app, `/api/v1/pool/${IDS.d}/claims`)).json() as GetPoolClaimsReturnType;
    const history = (await getPage(web.app, `/api/v1/pool/${IDS.d}/history?days=60`)).json();
    const { figure, marks } = historyFigure((await getPage(web.app, `/app/pools/${IDS.d}?days=60`, cookie)).body);
    expect(marks).to.have.length(history.attestations.length);
    expect(marks.sort()).to.deep.equal(api.claims.map((c): [number, string] => [c.issuedAt, c.outcome]).sort());
    const fails = figure.slice(figure.indexOf('<g class="fails">'));
    expect(fails.match(/<g class="fail"/g)).to.have.length(1);
    const failed = api.claims.find((c) => c.outcome === "failed")!;
    expect(text(fails)).to.include(`First failing day of the claim issued ${formatDay(failed.issuedAt)}`);
    const caption = text(figure.slice(figure.indexOf("<figcaption")));
    for (const legend of ["a claim that held", "a claim that failed", "a void claim", "first failing day, at its low"])
      expect(caption).to.include(legend);
    expect(caption).not.to.include("a pending claim");
    for (const c of api.claims) expect(caption).to.include(`until ${formatDay(c.settlesAt)}: ${c.outcome}`);
  });

  it("marks an attestation the track record does not list (a later one of the same UTC day) as such", async function () {
    // The lending reserve e: its current claim and the older one, both listed, plus a second one the same day.
    const api = (await getPage(web.app, `/api/v1/pool/${IDS.e}/claims`)).json() as GetPoolClaimsReturnType;
    expect(api.claims.map((c) => c.outcome)).to.deep.equal(["pending", "held"]);
    const { marks } = historyFigure((await getPage(web.app, `/app/pools/${IDS.e}?days=60`, cookie)).body);
    expect(marks.map(([, outcome]) => outcome).sort()).to.deep.equal(["held", "pending"]);
    const latest = api.claims[0].issuedAt;
    await insertAttestation(web.store, {
      chainId: 1,
      address: M.e,
      issuedAt: latest + 60,
      expiry: latest + DAY,
      horizonDays: 7,
      confidenceHundredths: 80,
    });
    const again = historyFigure((await getPage(web.app, `/app/pools/${IDS.e}?days=60`, cookie)).body);
    expect(again.marks.find(([issuedAt]) => issuedAt === latest + 60)?.[1]).to.equal("other");
    expect(again.figure).to.include("Floor of an attestation the track record below does not list");
  });

  it("says so on a pool without any claim", async function () {
    const body = (await getPage(web.app, `/app/pools/${IDS.b}`, cookie)).body;
    expect(text(body)).to.include("Track record No claim was signed for this pool yet.");
  });

  it("sets the live record beside the backtest on the model page, in plain words and with the accuracy API's numbers", async function () {
    const a = (await getPage(web.app, "/api/v1/accuracy")).json() as GetAccuracyReturnType;
    expect(a).to.include({ graded: 4, held: 2, failed: 1, void: 1 });
    const body = (await getPage(web.app, "/app/model", cookie)).body;
    const page = text(body);
    expect(page).to.include(
      `Of 4 claims graded, 2 held, 1 failed and 1 was void (a window day not observed: counted, not scored). Of the 3 scored, 66.7 % held; their Brier score is ${a.brier!.toFixed(3)}`,
    );
    expect(page).to.include(`The last graded claim settled on ${a.asOf}.`);
    const side = tableRows(body, "The backtest and the live record side by side");
    expect(side[0]).to.match(/^Claims graded \S+ 4$/);
    // The fixture has no backtest computed: its column is dashes.
    expect(side.slice(1)).to.deep.equal([
      "Scored (held or failed) — 3",
      "Held — 2 (66.7 %)",
      "Failed — 1 (33.3 %)",
      "Void (not scored) — 1",
      `Brier score (lower is better) — ${a.brier!.toFixed(3)}`,
      `Data up to — ${a.asOf}`,
    ]);
    const buckets = tableRows(body, "Live calibration buckets (signed claims)");
    expect(buckets).to.have.length(a.buckets.length);
    a.buckets.forEach((b, i) => {
      expect(buckets[i]).to.include(
        `${(b.interval90.low * 100).toFixed(1)} %–${(b.interval90.high * 100).toFixed(1)} %`,
      );
      expect(buckets[i].startsWith(`${formatConfidence(b.from)}–${formatConfidence(b.to)} ${b.n} `)).to.equal(
        true,
        buckets[i],
      );
    });
    expect(body).to.include('aria-labelledby="live-reliability-caption"');
    // Every horizon the model offers is listed; one without a graded claim is named as never scored.
    const byHorizon = tableRows(body, "Graded signed claims by horizon");
    expect(byHorizon.filter((row) => !row.endsWith("never scored"))).to.deep.equal(
      a.byHorizon.map((h) => `${h.horizon} days ${h.n} ${(h.holdRate * 100).toFixed(1)} %`),
    );
    const scoredHorizons = new Set(a.byHorizon.map((h) => h.horizon));
    expect(byHorizon.filter((row) => row.endsWith("never scored"))).to.deep.equal(
      DEFAULT_CANDIDATES.filter((h) => !scoredHorizons.has(h)).map((h) => `${h} days 0 never scored`),
    );
  });

  it("says that nothing is graded yet, before the first grade and before the backtest is computed", function () {
    const chrome = { assets: { script: "/a.js", style: "/a.css" }, session: null } as unknown as Parameters<
      typeof renderModelPage
    >[2];
    const empty: GetAccuracyReturnType = {
      asOf: null,
      graded: 0,
      held: 0,
      failed: 0,
      void: 0,
      brier: null,
      buckets: [],
      byHorizon: [],
      recent: [],
    };
    const page = text(
      renderModelPage({ model: "horizon-v1", computedAt: null, evaluation: null, versions: [] }, empty, chrome),
    );
    expect(page).to.include("Not computed yet").and.include("No signed claim is graded yet.");
    expect(page).to.match(/Claims graded — 0/);
    expect(page).not.to.include("Live calibration");
  });
});
