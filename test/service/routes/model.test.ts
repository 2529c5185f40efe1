import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { ISSUER_RULE, readEvaluatedPools, refreshModelEvaluation } from "../../../src/attest/refreshModelEvaluation";
import { walkForward } from "../../../src/model/evaluateModel";
import { gradeClaim } from "../../../src/model/gradeClaim";
import { HORIZON_MODELS, HORIZON_MODEL_ID, ISSUING_MODEL } from "../../../src/model/horizon";
import { getModelEvaluation } from "../../../src/read/getModelEvaluation";
import { getAccuracy } from "../../../src/read/getAccuracy";
import { renderModelPage } from "../../../src/web/pages/model";
import { surface as getModelEvaluationSurface } from "../../../src/read/getModelEvaluation";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import type { Store } from "../../../src/storage/openStore";
import { upsertCampaigns } from "../../../src/storage/campaigns";
import { recordDailyDepth, utcDay } from "../../../src/storage/poolDaily";
import { expectSchema } from "../../helpers/read/marketApp";
import {
  DAY,
  NOW,
  buildTestApp,
  insertAttestation,
  insertDaily,
  insertPool,
  openTempStore,
} from "../../helpers/service/app";

/** The route answers its declaration's shape. */
const ModelEvaluationResponseSchema = declaredResponseSchema(getModelEvaluationSurface);

const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const FEED_ONLY = "0x3000000000000000000000000000000000000003";
/**
 * Four more pools with dips every 30, 50, 25 and 60 days: the pooled versions calibrate a pool's claim on the other
 * pools' windows, and two pools as unlike as A and B give each other too little to claim on.
 */
const OTHERS: [string, number, number][] = [
  ["0x4000000000000000000000000000000000000004", 800_000, 30],
  ["0x5000000000000000000000000000000000000005", 2_000_000, 50],
  ["0x6000000000000000000000000000000000000006", 700_000, 25],
  ["0x7000000000000000000000000000000000000007", 900_000, 60],
];
const DAYS = 120;
/** 00:00 UTC of a day 60 days back, on which A's first attestation states a depth well above its low. */
const ANCHOR_AT = Math.floor((NOW - 60 * DAY) / DAY) * DAY;

type HistoryDay = { date: string; lowestDepthUsd: number | null; source: string; depthUsd: number | null };

/** A pool's lows: steady around `base`, with a withdrawal of 70 % on `dipEvery`-th days that returns the day after. */
function lows(base: number, dipEvery: number): number[] {
  return Array.from({ length: DAYS }, (_, i) =>
    i % dipEvery === dipEvery - 1 ? base * 0.3 : base * (1 + ((i * 7) % 5) / 100),
  );
}

describe("model evaluation route, tool and page (real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;

  before(async function () {
    ({ store, cleanup } = await openTempStore());
    for (const [address, symbol] of [
      [A, "AAA"],
      [B, "BBB"],
      [FEED_ONLY, "FFF"],
      ...OTHERS.map(([address], i): [string, string] => [address, `O${i}`]),
    ]) {
      await insertPool(store, { chain_id: 1, address, kind: "amm", symbol, protocol: "uniswap-v2" });
    }
    const series: [string, number[]][] = [
      [A, lows(1_000_000, 40)],
      [B, lows(500_000, 9)],
      ...OTHERS.map(([address, base, dipEvery]): [string, number[]] => [address, lows(base, dipEvery)]),
    ];
    for (const [address, values] of series) {
      for (const [i, depthUsd] of values.entries()) {
        const observedAt = NOW - (DAYS - i) * DAY + 3600;
        await recordDailyDepth(store.db, { chainId: 1, address, depthUsd, observedAt, block: String(1000 + i) });
      }
    }
    // A feed's daily points (no block) are never counted as lows.
    for (let i = 0; i < DAYS; i++) {
      const at = NOW - (DAYS - i) * DAY + 3600;
      await insertDaily(store, {
        chainId: 1,
        address: FEED_ONLY,
        day: utcDay(at),
        minDepthUsd: 2_000_000,
        minObservedAt: at,
      });
    }
    app = await buildTestApp(store);
  });

  after(async function () {
    await app?.close();
    await cleanup?.();
  });

  it("answers evaluation null with the model's id before the first issuing pass computed it", async function () {
    const res = await app.inject({ method: "GET", url: "/api/v1/model" });
    expect(res.statusCode).to.equal(200);
    const body = res.json();
    expect(body).to.deep.include({ model: HORIZON_MODEL_ID, computedAt: null, evaluation: null });
    expect(body.versions.map((v: { model: string }) => v.model)).to.deep.equal(HORIZON_MODELS.map((m) => m.id));
    expect(body.versions.every((v: { evaluation: unknown }) => v.evaluation === null)).to.equal(true);
  });

  it("serves what refreshModelEvaluation stored, and issued attestations are untouched", async function () {
    await insertAttestation(store, {
      chainId: 1,
      address: A,
      issuedAt: NOW - DAY,
      expiry: NOW + DAY,
      horizonDays: 30,
      confidenceHundredths: 90,
    });
    // The first attestation of ANCHOR_DAY stated $2.1M (floor $1.05M, above A's steady lows): the evaluation's claim
    // of that day is anchored on it and fails; a later one the same day does not count.
    for (const [offset, depth] of [
      [3600, 2_100_000],
      [7200, 1_000_000],
    ]) {
      await insertAttestation(store, {
        chainId: 1,
        address: A,
        issuedAt: ANCHOR_AT + offset,
        expiry: ANCHOR_AT + offset + DAY,
        horizonDays: 14,
        confidenceHundredths: 90,
      });
      await store.db
        .updateTable("attestations")
        .set({ depth_at_issuance_usd: depth })
        .where("issued_at", "=", ANCHOR_AT + offset)
        .execute();
    }
    const before = await store.db.selectFrom("attestations").selectAll().execute();
    const stored = await refreshModelEvaluation(store.db, { now: NOW });
    expect(await store.db.selectFrom("attestations").selectAll().execute()).to.deep.equal(before);
    expect(before.every((row) => row.outcome === "pending")).to.equal(true);

    // A route answer is cached briefly: a fresh app reads the stored evaluation.
    const fresh = await buildTestApp(store);
    try {
      const res = await fresh.inject({ method: "GET", url: "/api/v1/model" });
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expectSchema(ModelEvaluationResponseSchema, body);
      expect(body.model).to.equal(HORIZON_MODEL_ID);
      expect(body.computedAt).to.equal(NOW);
      expect(body.evaluation).to.deep.equal(JSON.parse(JSON.stringify(stored)));
      // Every version is evaluated on the same data; the issuing one is the top-level evaluation.
      expect(body.versions).to.have.length(HORIZON_MODELS.length);
      const issuing = body.versions.filter((v: { issuing: boolean }) => v.issuing);
      expect(issuing).to.have.length(1);
      expect(issuing[0].evaluation).to.deep.equal(body.evaluation);
      for (const version of body.versions) expect(version.evaluation.asOf).to.equal(body.evaluation.asOf);
      expect(body.evaluation.asOf).to.equal(utcDay(NOW - DAY));
      expect(body.evaluation.scored).to.be.greaterThan(50);
      expect(body.evaluation.held).to.be.lessThan(body.evaluation.scored);
      expect(body.evaluation.sample).to.have.length(Math.min(200, body.evaluation.scored));
      const pools = new Set(body.evaluation.sample.map((claim: { pool: string }) => claim.pool));
      expect(pools.has(`eip155:1:${FEED_ONLY}`), "a pool with only feed-daily days makes no claim").to.equal(false);
    } finally {
      await fresh.close();
    }
  });

  it("every sample claim's floor and outcome recompute from GET /api/v1/pool/{pool}/history (depthUsd, observed lows)", async function () {
    const body = (await buildTestApp(store).then(async (fresh) => {
      try {
        return (await fresh.inject({ method: "GET", url: "/api/v1/model" })).json();
      } finally {
        await fresh.close();
      }
    })) as {
      evaluation: { sample: { pool: string; asOf: string; horizon: number; floorUsd: number; held: boolean }[] };
    };
    const histories = new Map<string, Map<string, HistoryDay>>();
    for (const claim of body.evaluation.sample) {
      if (!histories.has(claim.pool)) {
        const res = await app.inject({ method: "GET", url: `/api/v1/pool/${claim.pool}/history?days=${DAYS + 10}` });
        expect(res.statusCode).to.equal(200);
        const days = res.json().days as HistoryDay[];
        histories.set(claim.pool, new Map(days.map((d) => [d.date, d])));
      }
      const byDay = histories.get(claim.pool)!;
      const observed = (date: string) => {
        const d = byDay.get(date);
        return d !== undefined && d.source === "observed" && d.lowestDepthUsd !== null ? d.lowestDepthUsd : null;
      };
      const anchor = byDay.get(claim.asOf)!.depthUsd ?? observed(claim.asOf)!;
      expect(claim.floorUsd, `${claim.pool} ${claim.asOf}`).to.equal(0.5 * anchor);
      const grade = gradeClaim(
        { issuedDay: claim.asOf, horizon: claim.horizon, floorUsd: claim.floorUsd },
        observed,
        utcDay(NOW - DAY),
      );
      expect(grade.outcome, `${claim.pool} ${claim.asOf}`).to.equal(claim.held ? "held" : "failed");
    }
    expect(
      body.evaluation.sample.some((claim) => !claim.held),
      "the dips break some claims",
    ).to.equal(true);
  });

  it("the claim of a day with an attestation is anchored on the depth it states, as the history's depthUsd says", async function () {
    const anchorDay = utcDay(ANCHOR_AT);
    const res = await app.inject({ method: "GET", url: `/api/v1/pool/1:${A}/history?days=${DAYS}` });
    const days = res.json().days as HistoryDay[];
    const day = days.find((d) => d.date === anchorDay)!;
    expect(day.depthUsd, "the first attestation of the day").to.equal(2_100_000);
    expect(days.filter((d) => d.depthUsd !== null).map((d) => d.date)).to.deep.equal([anchorDay, utcDay(NOW - DAY)]);
    const claims: { pool: string; asOf: string; floorUsd: number; outcome: string }[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/model/claims${cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`}`;
      const page = (await app.inject({ method: "GET", url })).json();
      claims.push(...page.claims);
      cursor = page.next;
    } while (cursor !== null);
    const claim = claims.find((c) => c.pool === `eip155:1:${A}` && c.asOf === anchorDay)!;
    expect(claim).to.include({ floorUsd: 1_050_000, outcome: "failed" });
    // The day before, anchored on its own low, the same steady pool held.
    const dayBefore = utcDay(ANCHOR_AT - DAY);
    const previous = claims.find((c) => c.pool === `eip155:1:${A}` && c.asOf === dayBefore)!;
    expect(previous.outcome).to.equal("held");
    expect(previous.floorUsd).to.equal(0.5 * days.find((d) => d.date === dayBefore)!.lowestDepthUsd!);
  });

  it("the model page draws one dot per calibration bucket, the Brier score beside the baseline's, and the horizons", async function () {
    const evaluation = await refreshModelEvaluation(store.db, { now: NOW });
    const chrome = { assets: { script: "/a.js", style: "/a.css" }, session: null } as unknown as Parameters<
      typeof renderModelPage
    >[2];
    const data = await getModelEvaluation({ db: store.db });
    const accuracy = await getAccuracy({ db: store.db });
    const page = renderModelPage(data, accuracy, chrome);
    expect(page.match(/<circle /g)).to.have.length(evaluation.buckets.length);
    expect(page).to.include(evaluation.brier!.toFixed(3)).and.include(evaluation.baselineBrier!.toFixed(3));
    expect(page).to.include(evaluation.brier! < evaluation.baselineBrier! ? "beats the baseline" : "does not beat");
    // The difference's 90 % interval holds the difference itself, and the page states it.
    const interval = evaluation.brierDifference90!;
    expect(interval.low).to.be.at.most(evaluation.brier! - evaluation.baselineBrier! + 1e-6);
    expect(interval.high).to.be.at.least(evaluation.brier! - evaluation.baselineBrier! - 1e-6);
    expect(page).to.include("90 % interval, the pools taken as the independent units");
    for (const horizon of evaluation.byHorizon) expect(page).to.include(`${horizon.horizon} days`);
    for (const version of data.versions) expect(page).to.include(version.model);
    const empty = renderModelPage(
      { model: HORIZON_MODEL_ID, computedAt: null, evaluation: null, versions: [] },
      accuracy,
      chrome,
    );
    expect(empty).to.include("Not computed yet").and.not.include("<circle");
  });

  it("the stored evaluation reads the attestations' stated depths and the campaign ends issuance reads", async function () {
    const lastDay = utcDay(NOW - DAY);
    const end = Math.floor((NOW - 40 * DAY) / DAY) * DAY + 6 * 3600; // 06:00 UTC of a day 40 days back
    const before = await readEvaluatedPools(store.db, { lastDay });
    await store.db.updateTable("pools").set({ merkl_id: "opp-a" }).where("address", "=", A.toLowerCase()).execute();
    const campaign = (id: string, type: string, endTs: number) => ({
      id,
      distributionChainId: 1,
      chainId: 1,
      opportunityId: "opp-a",
      identifier: "opp-a",
      name: null,
      type,
      status: "LIVE",
      rewardToken: null,
      amount: null,
      aprPercent: null,
      startsAt: end - 100 * DAY,
      endsAt: endTs,
      observedAt: NOW,
    });
    // A borrow campaign rewards borrowing, not depth: issuance does not cap on it, nor does the evaluation.
    await upsertCampaigns(store.db, [campaign("c1", "UNISWAP_V2", end), campaign("c2", "AAVE_BORROW", end - 20 * DAY)]);
    const pools = await readEvaluatedPools(store.db, { lastDay });
    const a = pools.find((p) => p.pool === `eip155:1:${A}`)!;
    const b = pools.find((p) => p.pool === `eip155:1:${B}`)!;
    expect(a.depths).to.deep.equal([
      { day: utcDay(ANCHOR_AT), depthUsd: 2_100_000 },
      { day: lastDay, depthUsd: 1_000_000 },
    ]);
    expect(a.campaignEnds).to.deep.equal([end]);
    expect(b.campaignEnds).to.equal(undefined);
    expect(b.depths).to.equal(undefined);
    // The cap bites: A made claims in the week before the end; now none reaches past it.
    const rule = { ...ISSUER_RULE, model: ISSUING_MODEL };
    const week = <T extends { asOf: string }>(claims: T[]) =>
      claims.filter((c) => c.asOf >= utcDay(end - 7 * DAY) && c.asOf <= utcDay(end - DAY));
    const uncapped = week(
      walkForward(
        before.find((p) => p.pool === a.pool)!,
        rule,
        lastDay,
      ),
    );
    const capped = walkForward(a, rule, lastDay);
    expect(uncapped.length).to.be.greaterThan(0);
    for (const c of week(capped)) {
      expect(Date.parse(`${c.asOf}T00:00:00Z`) / 1000 + c.horizon * DAY, c.asOf).to.be.at.most(end);
    }
    expect(week(capped).length).to.be.lessThan(uncapped.length);
  });
});
