import { expect } from "chai";
import type { Kysely } from "kysely";
import { InvalidParameterError } from "../../src/errors/market";
import { InvalidPoolIdError } from "../../src/errors/pool";
import { AmbiguousPoolError, PoolNotFoundError } from "../../src/errors/poolLookup";
import type { ReadContext } from "../../src/read/context";
import { getPoolHistory, POOL_HISTORY_PARAMETERS } from "../../src/read/getPoolHistory";
import { PoolHistorySchema } from "../../src/read/schemas/poolHistory";
import { backfillDailyDepth, recordDailyDepth } from "../../src/storage/poolDaily";
import { addDailyVolumes } from "../../src/storage/poolVolume";
import type { Store } from "../../src/storage/openStore";
import type { Database } from "../../src/storage/schema";
import { insertAttestation, insertPool } from "../helpers/service/app";
import { forEachBackend, type OpenFresh } from "../helpers/storage/backends";
import { rejection } from "../helpers/rejection";

const DAY = 86_400;
/** 2026-01-15T12:00:00Z: today is partial, so the listed days end on 2026-01-14. */
const NOW = Date.UTC(2026, 0, 15, 12) / 1000;
/** Unix seconds of a UTC day's start plus `s`. */
const at = (day: string, s = 0) => Date.parse(`${day}T00:00:00Z`) / 1000 + s;

/** Chain 1 AMM: observed and backfilled lows, five attestations around the 5-day range. */
const P = "0xaa00000000000000000000000000000000000001";
/** Tracked on chains 8453 and 42161 (a bare address is ambiguous); nothing stored for either. */
const Q = "0xbb00000000000000000000000000000000000002";
/** Chain 1 lending pool with lows and no attestation. */
const N = "0xcc00000000000000000000000000000000000003";

async function seedHistory(store: Store): Promise<void> {
  const amm = { kind: "amm" as const, protocol: "uniswap-v2" };
  await insertPool(store, { chain_id: 1, address: P, symbol: "WETH-USDC", ...amm });
  await insertPool(store, { chain_id: 8453, address: Q, symbol: "AERO-USDC", ...amm });
  await insertPool(store, { chain_id: 42161, address: Q, symbol: "ARB-USDC", ...amm });
  await insertPool(store, { chain_id: 1, address: N, symbol: "aUSDC", kind: "lending", protocol: "aave-v3" });
  const observe = (address: string, day: string, depthUsd: number, s: number) =>
    recordDailyDepth(store.db, { chainId: 1, address, depthUsd, observedAt: at(day, s), block: String(s) });
  await observe(P, "2026-01-05", 50, 3600); // before a 5-day range
  await observe(P, "2026-01-10", 900, 3600);
  await observe(P, "2026-01-10", 700, 7200); // the day's low
  await observe(P, "2026-01-10", 800, 9000);
  await observe(P, "2026-01-12", 650, 3600);
  await observe(P, "2026-01-14", 600, 3600);
  await observe(P, "2026-01-15", 10, 3600); // today: never listed
  // The /chart backfill writes where the pool has no row only: 01-11 is added, 01-12 keeps its on-chain low.
  const points = ["2026-01-11", "2026-01-12"].map((day) => ({ day, depthUsd: 1_000, observedAt: at(day, 86_000) }));
  await backfillDailyDepth(store.db, { chainId: 1, address: P, points });
  await observe(N, "2026-01-13", 42, 60);
  // Swap-log volume: 01-10 read twice (summed), 01-12 read with no swap (a zero, not a gap), 01-15 today (never listed).
  const swap = (day: string, volumeUsd: number, swaps: number) => ({
    chainId: 1,
    address: P,
    day,
    firstBlock: 1n,
    lastBlock: 2n,
    observedAt: at(day, 86_399),
    volumeUsd,
    swaps,
  });
  await addDailyVolumes(store.db, [swap("2026-01-10", 1_200, 3)]);
  await addDailyVolumes(store.db, [swap("2026-01-10", 300, 1), swap("2026-01-12", 0, 0), swap("2026-01-15", 99, 1)]);
  const attest = (issuedAt: number, horizonDays: number, confidenceHundredths: number) =>
    insertAttestation(store, {
      chainId: 1,
      address: P,
      issuedAt,
      expiry: issuedAt + horizonDays * DAY,
      horizonDays,
      confidenceHundredths,
    });
  await attest(at("2025-12-01"), 7, 70); // settled long before a 5-day range
  await attest(at("2026-01-05"), 5, 75); // settles at the range's very first second: out
  await attest(at("2026-01-01", 600), 30, 80); // issued before the range, settles after it: over it
  await attest(at("2026-01-12", 6 * 3600), 14, 85); // issued inside the range
  await attest(at("2026-01-15", 3600), 30, 90); // issued today: the current claim, listed after the range's days
}

function poolHistory(openFresh: OpenFresh) {
  let store: Store;
  let context: ReadContext;

  before(async function () {
    this.timeout(60_000);
    store = await openFresh();
    await seedHistory(store);
    context = { db: store.db, freshnessWindowS: 3600, now: () => NOW };
  });

  it("lists every complete UTC day oldest first, ending yesterday, with null where nothing was stored", async function () {
    const history = await getPoolHistory(context, { pool: `eip155:1:${P}`, days: 6 });
    expect(history.pool).to.equal(`eip155:1:${P}`);
    expect(history.days).to.deep.equal([
      { date: "2026-01-09", lowestDepthUsd: null, source: "observed", depthUsd: null, volumeUsd: null },
      { date: "2026-01-10", lowestDepthUsd: 700, source: "observed", depthUsd: null, volumeUsd: 1_500 },
      { date: "2026-01-11", lowestDepthUsd: 1_000, source: "feed-daily", depthUsd: null, volumeUsd: null },
      // The attestation issued that day states a depth of $1M (its floor $500k).
      { date: "2026-01-12", lowestDepthUsd: 650, source: "observed", depthUsd: 1_000_000, volumeUsd: 0 },
      { date: "2026-01-13", lowestDepthUsd: null, source: "observed", depthUsd: null, volumeUsd: null },
      { date: "2026-01-14", lowestDepthUsd: 600, source: "observed", depthUsd: null, volumeUsd: null },
    ]);
    expect(() => PoolHistorySchema.parse(history)).not.to.throw();
  });

  it("lists the attestations whose claim window reaches into the range, today's included, oldest first, with their USD floor", async function () {
    const history = await getPoolHistory(context, { pool: P, days: 5 });
    expect(history.attestations).to.deep.equal([
      {
        issuedAt: at("2026-01-01", 600),
        horizon: 30,
        confidence: 0.8,
        floorUsd: 500_000,
        settlesAt: at("2026-01-31", 600),
      },
      {
        issuedAt: at("2026-01-12", 6 * 3600),
        horizon: 14,
        confidence: 0.85,
        floorUsd: 500_000,
        settlesAt: at("2026-01-26", 6 * 3600),
      },
      {
        issuedAt: at("2026-01-15", 3600),
        horizon: 30,
        confidence: 0.9,
        floorUsd: 500_000,
        settlesAt: at("2026-02-14", 3600),
      },
    ]);
    const wide = await getPoolHistory(context, { pool: P, days: 90 });
    // By issuedAt; today's (the current claim) is listed too.
    expect(wide.attestations.map((claim) => claim.confidence)).to.deep.equal([0.7, 0.8, 0.75, 0.85, 0.9]);
  });

  it("defaults to 90 days, takes 1 and 730, and refuses anything else with INVALID_PARAMETER", async function () {
    expect(POOL_HISTORY_PARAMETERS.days).to.include({ minimum: 1, maximum: 730, default: 90 });
    const byDefault = await getPoolHistory(context, { pool: P });
    expect(byDefault.days).to.have.length(90);
    expect([byDefault.days[0].date, byDefault.days[89].date]).to.deep.equal(["2025-10-17", "2026-01-14"]);
    expect((await getPoolHistory(context, { pool: P, days: 1 })).days).to.deep.equal([
      { date: "2026-01-14", lowestDepthUsd: 600, source: "observed", depthUsd: null, volumeUsd: null },
    ]);
    const longest = await getPoolHistory(context, { pool: P, days: 730 });
    expect(longest.days).to.have.length(730);
    expect([longest.days[0].date, longest.days[729].date]).to.deep.equal(["2024-01-16", "2026-01-14"]);
    for (const days of [0, 731, 1.5, -1, Number.NaN]) {
      const error = await rejection(getPoolHistory(context, { pool: P, days }));
      expect(error, String(days)).to.be.instanceOf(InvalidParameterError);
      expect((error as InvalidParameterError).field).to.equal("days");
      expect((error as { code?: string }).code).to.equal("INVALID_PARAMETER");
    }
  });

  it("gives each day the depth its first attestation states, so every floor is checkable from the history", async function () {
    const R = "0xee00000000000000000000000000000000000005";
    await insertPool(store, { chain_id: 1, address: R, symbol: "R-USDC", kind: "amm", protocol: "uniswap-v2" });
    const attest = async (issuedAt: number, depthUsd: number) => {
      await insertAttestation(store, {
        chainId: 1,
        address: R,
        issuedAt,
        expiry: issuedAt + 7 * DAY,
        horizonDays: 7,
        confidenceHundredths: 90,
      });
      await store.db
        .updateTable("attestations")
        .set({ depth_at_issuance_usd: depthUsd })
        .where("address", "=", R)
        .where("issued_at", "=", issuedAt)
        .execute();
    };
    // Stored out of order: the day's first is the earliest issued, not the first stored.
    await attest(at("2026-01-13", 5 * 3600), 900_000);
    await attest(at("2026-01-13", 3600), 800_000);
    await attest(at("2026-01-14", 86_399), 1_200_000);
    await attest(at("2026-01-15", 60), 5); // today: not a listed day
    const history = await getPoolHistory(context, { pool: `1:${R}`, days: 3 });
    expect(history.days.map((d) => [d.date, d.depthUsd])).to.deep.equal([
      ["2026-01-12", null],
      ["2026-01-13", 800_000],
      ["2026-01-14", 1_200_000],
    ]);
    // The floor of the day's first claim is floor × depthUsd.
    const first = history.attestations.find((a) => a.issuedAt === at("2026-01-13", 3600))!;
    expect(first.floorUsd).to.equal(0.5 * 800_000);
    expect(() => PoolHistorySchema.parse(history)).not.to.throw();
  });

  it("takes every id shape and throws the pool errors the other pool readers throw", async function () {
    const mixed = P.toUpperCase().replace("0X", "0x");
    for (const pool of [P, mixed, `1:${P}`, `eip155:1:${mixed}`]) {
      expect((await getPoolHistory(context, { pool, days: 2 })).pool, pool).to.equal(`eip155:1:${P}`);
    }
    expect(await rejection(getPoolHistory(context, { pool: "nope" }))).to.be.instanceOf(InvalidPoolIdError);
    expect(await rejection(getPoolHistory(context, { pool: `10:${P}` }))).to.be.instanceOf(PoolNotFoundError);
    const untracked = "0xdd00000000000000000000000000000000000004";
    expect(await rejection(getPoolHistory(context, { pool: untracked }))).to.be.instanceOf(PoolNotFoundError);
    const ambiguous = await rejection(getPoolHistory(context, { pool: Q }));
    expect(ambiguous).to.be.instanceOf(AmbiguousPoolError);
    expect((ambiguous as AmbiguousPoolError).candidates).to.deep.equal([`eip155:8453:${Q}`, `eip155:42161:${Q}`]);
  });

  it("gives a tracked pool without an attestation its history, never a not-found", async function () {
    expect(await getPoolHistory(context, { pool: `1:${N}`, days: 2 })).to.deep.equal({
      pool: `eip155:1:${N}`,
      days: [
        { date: "2026-01-13", lowestDepthUsd: 42, source: "observed", depthUsd: null, volumeUsd: null },
        { date: "2026-01-14", lowestDepthUsd: null, source: "observed", depthUsd: null, volumeUsd: null },
      ],
      attestations: [],
    });
    const empty = await getPoolHistory(context, { pool: `8453:${Q}`, days: 3 });
    expect(empty.days.map((day) => day.lowestDepthUsd)).to.deep.equal([null, null, null]);
    expect(empty.attestations).to.deep.equal([]);
  });

  it("runs the same few queries for 1 day as for 730", async function () {
    const counted = (): { context: ReadContext; queries: () => number } => {
      let queries = 0;
      const db: Kysely<Database> = store.db.withPlugin({
        transformQuery: (args) => {
          queries++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      return { context: { ...context, db }, queries: () => queries };
    };
    const short = counted();
    await getPoolHistory(short.context, { pool: P, days: 1 });
    const long = counted();
    await getPoolHistory(long.context, { pool: P, days: 730 });
    // resolvePool's lookup, then the daily rows, the attestations, the first depth of each day and the daily volume:
    // one query each.
    expect(short.queries()).to.equal(5);
    expect(long.queries()).to.equal(short.queries());
  });
}

describe("getPoolHistory (src/read: daily lows and the claims over them)", function () {
  forEachBackend(poolHistory);
});
