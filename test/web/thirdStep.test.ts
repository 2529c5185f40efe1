import { expect } from "chai";
import type { ListPoolsReturnType } from "../../src/read/listPools";
import type { CalibrationBucket, ModelEvaluation } from "../../src/model/evaluateModel";
import type { GetAccuracyReturnType } from "../../src/read/getAccuracy";
import { countOf, formatConfidence, protocolName, shortAddress } from "../../src/web/format";
import {
  baselineStanding,
  baselineVerdict,
  bucketSentence,
  bucketVerdict,
  renderModelPage,
  spreadAcrossPools,
} from "../../src/web/pages/model";
import { whyHorizon } from "../../src/web/pages/pool";
import { shortNoAttestationReason } from "../../src/web/pages/pools";
import { IDS } from "../helpers/read/seedMarket";
import { getPage, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

/** The page's text with tags and runs of white space folded. */
function text(body: string): string {
  return body
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'");
}

/** The markup of the pools table's row of `id`. */
function rowOf(body: string, id: string): string {
  const rows = [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
  const row = rows.find((r) => r.includes(`title="${id}"`));
  expect(row, `a row for ${id}`).to.be.a("string");
  return row!;
}

/**
 * The dapp's third step (issue 33) over app.inject on the web fixture: a pool without an attestation says why in the
 * list; the pool page's words for its times and its horizon; the model page's plain answer; human names.
 */
describe("the dapp's third step: reasons, plain words, names", function () {
  const web = useWebApp();
  let cookie: string;
  let pools: ListPoolsReturnType;

  before(async function () {
    cookie = await signInCookie(web.app, WALLET);
    pools = (await getPage(web.app, "/api/v1/pools")).json();
  });

  describe("the pools list", function () {
    it("gives each pool without an attestation the reader's reason instead of a dash, in a few words", async function () {
      const body = (await getPage(web.app, "/app/pools", cookie)).body;
      const without = pools.pools.filter((pool) => pool.horizon === null);
      expect(without.length, "the fixture has pools without an attestation").to.be.greaterThan(0);
      for (const pool of without) {
        expect(pool.noAttestationReason, pool.id).to.be.a("string");
        const row = rowOf(body, pool.id);
        expect(text(row)).to.include(`No attestation: ${shortNoAttestationReason(pool.noAttestationReason!)}`);
        expect(row, "the whole sentence on hover").to.include(
          `title="${pool.noAttestationReason!.replace(/'/g, "&#39;")}"`,
        );
        expect(row, "no dash in a Horizon cell").not.to.include('data-label="Horizon"');
      }
      for (const pool of pools.pools.filter((p) => p.horizon !== null)) {
        expect(pool.noAttestationReason, pool.id).to.equal(null);
      }
    });

    it("puts horizon and confidence right after the pool's name (first on a phone's card)", async function () {
      const body = (await getPage(web.app, "/app/pools", cookie)).body;
      const head = text(body.slice(body.indexOf("<thead>"), body.indexOf("</thead>")));
      expect(head.replace(/[↑↓]/g, "").trim().split(/\s+/)).to.deep.equal([
        "Pool",
        "Horizon",
        "Confidence",
        "Depth",
        "Observed",
        "Status",
        "Kind",
      ]);
      const attested = pools.pools.find((p) => p.horizon !== null)!;
      const labels = [...rowOf(body, attested.id).matchAll(/data-label="([^"]+)"/g)].map((m) => m[1]);
      expect(labels.slice(0, 2)).to.deep.equal(["Horizon", "Confidence"]);
    });

    it("shortens the model's and the reader's sentences", function () {
      expect(
        shortNoAttestationReason(
          "the claim held in 20 of 29 past 7-day windows; confidence 69% (daily-min-margin/v3), below the 80% target.",
        ),
      ).to.equal("confidence 69 %, below the 80 % target");
      expect(
        shortNoAttestationReason(
          "insufficient history: 9 days recorded, 2 complete 7-day windows; need at least 7 (about 14 consecutive days).",
        ),
      ).to.equal("insufficient history");
      expect(
        shortNoAttestationReason(
          "its last depth observation is older than the freshness window: a stale depth anchors no claim; a new attestation follows the next fresh reading.",
        ),
      ).to.equal("stale depth");
      expect(shortNoAttestationReason("something new.")).to.equal("something new");
    });
  });

  describe("a pool's page", function () {
    it("says in plain words what Issued, Expires and Settles mean, why this horizon, and what the confidence promises", async function () {
      const api = (await getPage(web.app, `/api/v1/pool/${IDS.e}`)).json();
      const page = text((await getPage(web.app, `/app/pools/${IDS.e}`, cookie)).body);
      expect(page).to.include("When the attester signed the claim; its window starts here.");
      expect(page).to.include("When the signature stops being a current attestation");
      expect(page).to.include("the claim itself runs on until it settles");
      expect(page).to.include(`When the claim's ${api.horizon}-day window closes and it is graded`);
      expect(page).to.include(
        `Why ${api.horizon} days: the model tries horizons of 7, 14, 30, 60, 90 and 180 days, and publishes the longest whose confidence`,
      );
      expect(page).to.include(`${api.horizon} days met it at ${formatConfidence(api.confidence)}.`);
      expect(page).to.include(
        `What ${formatConfidence(api.confidence)} promises: of many claims made at this confidence`,
      );
    });

    it("names the next longer horizon, and says when the published one is the longest the model offers", function () {
      expect(whyHorizon({ horizon: 30, confidence: 0.85 })).to.include(
        "30 days met it at 85 %. The next longer one, 60 days, did not qualify",
      );
      expect(whyHorizon({ horizon: 180, confidence: 0.9 })).to.match(/It is the longest horizon the model offers\.$/);
    });

    it("says what the issuing model's confidence is: other pools' windows with a like score, or the cautious prior", function () {
      const why = whyHorizon({ horizon: 30, confidence: 0.85 });
      expect(why).to.include("how often windows of that length held across the other tracked pools");
      expect(why).to.include("a cautious share of this pool's own past windows");
    });
  });

  describe("the model page", function () {
    it("lists sample claims from every pool in turn, each pool's newest first, not the first pool's only", function () {
      const claim = (pool: string, asOf: string) => ({ pool, asOf });
      const sample = [
        ...["2026-01-01", "2026-01-02", "2026-01-03"].map((day) => claim("a", day)),
        claim("b", "2026-01-01"),
        ...["2026-01-04", "2026-01-05"].map((day) => claim("c", day)),
      ];
      expect(spreadAcrossPools(sample, 4)).to.deep.equal([
        claim("a", "2026-01-03"),
        claim("b", "2026-01-01"),
        claim("c", "2026-01-05"),
        claim("a", "2026-01-02"),
      ]);
      expect(spreadAcrossPools(sample, 20)).to.have.length(6);
      expect(spreadAcrossPools([], 20)).to.deep.equal([]);
    });

    const bucket = (from: number, n: number, meanConfidence: number, holdRate: number, low: number, high: number) =>
      ({
        from,
        to: from + 0.05,
        n,
        effectiveN: n,
        meanConfidence,
        holdRate,
        interval90: { low, high },
      }) satisfies CalibrationBucket;
    const inside = bucket(0.8, 200, 0.824, 0.835, 0.79, 0.87);
    const over = bucket(0.85, 120, 0.87, 0.7, 0.63, 0.77);
    const under = bucket(0.9, 60, 0.91, 0.99, 0.95, 1);
    const evaluation: ModelEvaluation = {
      asOf: "2026-01-14",
      claims: 400,
      scored: 380,
      held: 300,
      void: 20,
      brier: 0.12,
      baselineBrier: 0.15,
      brierDifference90: { low: -0.041, high: -0.019 },
      buckets: [inside, over, under],
      byHorizon: [
        { horizon: 7, n: 300, holdRate: 0.8 },
        { horizon: 30, n: 80, holdRate: 0.75 },
      ],
      sample: [],
    };
    const accuracy: GetAccuracyReturnType = {
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
    const chrome = { assets: { script: "/a.js", style: "/a.css" }, session: null } as unknown as Parameters<
      typeof renderModelPage
    >[2];
    const page = () =>
      text(
        renderModelPage(
          {
            model: "daily-min-margin/v3",
            computedAt: 1_768_000_000,
            evaluation,
            versions: [
              { model: "daily-min-margin/v3", rule: "r", issuing: true, computedAt: 1_768_000_000, evaluation },
            ],
          },
          accuracy,
          chrome,
        ),
      );

    it("labels a bucket calibrated only when its mean confidence is inside its 90 % interval", function () {
      expect(bucketVerdict(inside)).to.equal("calibrated");
      expect(bucketVerdict(over)).to.equal("over-confident");
      expect(bucketVerdict(under)).to.equal("under-confident");
      // Within 0.10 of its promise, yet outside the interval: not calibrated (the old rule said it was).
      expect(Math.abs(under.holdRate - under.meanConfidence)).to.be.below(0.1);
    });

    it("opens with the plain answer, each bucket in a sentence, before the Brier score", function () {
      const body = page();
      const answer = body.indexOf("Claims made at 80–85 % held 83.5 % of the time");
      expect(answer, "the plain answer").to.be.greaterThan(-1);
      expect(answer).to.be.below(body.indexOf("Brier score"));
      expect(bucketSentence(inside)).to.equal(
        "Claims made at 80–85 % held 83.5 % of the time (200 claims; 90 % interval 79.0 %–87.0 %): calibrated: the promise is inside the 90 % interval of what held.",
      );
      expect(body).to.include(
        "Claims made at 85–90 % held 70.0 % of the time (120 claims; 90 % interval 63.0 %–77.0 %): over-confident: their mean confidence, 87.0 %, is outside the 90 % interval of what held.",
      );
      expect(body).to.include("No signed claim is graded yet.");
    });

    it("says whether the model beats the baseline by more than chance, from the difference's 90 % interval", function () {
      expect(page()).to.include(
        "The model beats the baseline, by more than chance: its Brier score minus the baseline's is −0.0410 to −0.0190 (90 % interval, the pools taken as the independent units).",
      );
      expect(baselineVerdict(false, { low: -0.0002, high: 0.0005 })).to.equal(
        "The model does not beat the baseline, but the two are level within chance: its Brier score minus the baseline's is −0.0002 to +0.0005 (90 % interval, the pools taken as the independent units).",
      );
      expect(baselineVerdict(false, { low: 0.001, high: 0.003 })).to.match(
        /^The model does not beat the baseline: it scores worse, by more than chance: .* \+0\.0010 to \+0\.0030 /,
      );
      expect(baselineVerdict(true, null)).to.equal("The model beats the baseline.");
      // The versions table says the same per version: better, level or worse.
      expect(baselineStanding({ low: -0.041, high: -0.019 })).to.equal("better");
      expect(baselineStanding({ low: -0.0002, high: 0.0005 })).to.equal("level");
      expect(baselineStanding({ low: 0.001, high: 0.003 })).to.equal("worse");
      expect(baselineStanding(null)).to.equal(null);
      expect(page()).to.include("Vs. baseline: better or worse where the 90 % interval");
      expect(page()).to.match(/0\.150 better (yes|no)/);
    });

    it("names the horizons never scored", function () {
      const body = page();
      for (const h of [14, 60, 90, 180]) expect(body).to.include(`${h} days 0 never scored`);
      expect(body).to.include("7 days 300 80.0 %");
    });
  });

  describe("human names", function () {
    it("names protocols as their sites do, on every page that names a pool", async function () {
      expect(protocolName("uniswap-v2")).to.equal("Uniswap V2");
      expect(protocolName("aave-v3")).to.equal("Aave v3");
      expect(protocolName("sushiswap-v2")).to.equal("SushiSwap V2");
      expect(protocolName("something-new")).to.equal("something-new");
      const list = text((await getPage(web.app, "/app/pools", cookie)).body);
      // (The fixture's hostile symbol is printed escaped: its text is checked elsewhere.)
      for (const pool of pools.pools.filter((p) => !p.symbol.includes("<"))) {
        expect(list).to.include(`${pool.symbol} · ${protocolName(pool.protocol)} ·`);
      }
      expect(list).not.to.match(/ · (uniswap-v2|aave-v3|sushiswap(-v2)?) · /);
      const pool = text((await getPage(web.app, `/app/pools/${IDS.e}`, cookie)).body);
      expect(pool).to.include("Aave v3 · lending");
    });

    it("says 1 pool, 1 attester, and counts in the right number", async function () {
      expect(countOf(1, "pool")).to.equal("1 pool");
      expect(countOf(0, "pool")).to.equal("0 pools");
      expect(countOf(1204, "claim")).to.equal("1,204 claims");
      expect(countOf(1, "ingestion pass", "ingestion passes")).to.equal("1 ingestion pass");
      const list = text((await getPage(web.app, "/app/pools", cookie)).body);
      expect(list).to.include(`(${countOf(pools.total.pools, "pool")})`);
      expect(list).to.include(`(${countOf(pools.heldOut.pools.length, "pool")})`);
      const roadmap = text((await getPage(web.app, "/app/roadmap", cookie)).body);
      expect(roadmap).not.to.match(/ 1 (pools|attesters|claims|attestations|events|campaigns) /);
      const launch = text((await getPage(web.app, "/app/launch", cookie)).body);
      expect(launch).not.to.match(/ 1 (attesters|claims|days|requests|reserves) /);
    });

    it("cuts the header's address short, the whole one in its title", async function () {
      expect(shortAddress("0x1234567890abcdef1234567890abcdef1234abcd")).to.equal("0x1234…abcd");
      const body = (await getPage(web.app, "/app/pools", cookie)).body;
      expect(body).to.match(new RegExp(`title="${WALLET.address}"\\s*>${shortAddress(WALLET.address)}</code`));
    });
  });
});
