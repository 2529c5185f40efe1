import { getLatestExpiryByPool } from "../../storage/attestations";
import { summarizeDailyLows, utcDay } from "../../storage/poolDaily";
import { listPoolsOf } from "../../storage/pools";
import type { ReadContext } from "../context";
import { isFreshValue, poolDimensions, type PoolDimensions } from "./poolDimensions";
import { countStore } from "./storeCounters";
import { addDays } from "./utcDays";

/** What a gate's measure found: a number with a one-line detail, or why the store cannot measure it. */
export type Measurement = { measured: number; detail: string } | { measured: null; detail: string };

/** The market a launch position is about: the tracked pools of one protocol and kind. */
export type LaunchMarket = { protocol: string; kind: "amm" | "lending" };

/** The complete UTC days the history measures look at (ending yesterday). */
const HISTORY_DAYS = 90;

/**
 * The store reads the measures share, each made at most once per request. No measure returns a date or a time:
 * the launch position carries none.
 */
export class LaunchMeasureContext {
  private reserves?: Promise<{ all: PoolDimensions[]; fresh: PoolDimensions[] }>;
  private lows?: Promise<Awaited<ReturnType<typeof summarizeDailyLows>>>;

  constructor(
    readonly context: ReadContext,
    readonly market: LaunchMarket,
    readonly at: number,
  ) {}

  /** The market's tracked reserves, and those whose exitability is fresh (the ones every measure counts). */
  marketReserves(): Promise<{ all: PoolDimensions[]; fresh: PoolDimensions[] }> {
    this.reserves ??= listPoolsOf(this.context.db, this.market).then((rows) => {
      const all = rows.map((row) => poolDimensions(row, { now: this.at, windowS: this.context.freshnessWindowS }));
      return { all, fresh: all.filter((pool) => isFreshValue(pool, "exitabilityUsd")) };
    });
    return this.reserves;
  }

  /** Days recorded and lowest daily depth per reserve over the last {@link HISTORY_DAYS} complete UTC days. */
  dailyLows(): Promise<Awaited<ReturnType<typeof summarizeDailyLows>>> {
    const yesterday = addDays(utcDay(this.at), -1);
    this.lows ??= summarizeDailyLows(this.context.db, {
      fromDay: addDays(yesterday, 1 - HISTORY_DAYS),
      toDay: yesterday,
      ...this.market,
    });
    return this.lows;
  }
}

const heldOut = (all: number, fresh: number) => (all === fresh ? "" : `; ${all - fresh} held out as stale`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const usd = (value: number) => `$${Math.round(value).toLocaleString("en-US")}`;

/** Each measure a gate may name in the gates file, by name. */
export const LAUNCH_MEASURES: Record<string, (m: LaunchMeasureContext) => Promise<Measurement>> = {
  async freshReserves(m) {
    const { all, fresh } = await m.marketReserves();
    return {
      measured: fresh.length,
      detail: `${fresh.length} of ${all.length} tracked reserves${heldOut(all.length, fresh.length)}.`,
    };
  },

  async exitableUsd(m) {
    const { all, fresh } = await m.marketReserves();
    if (fresh.length === 0) return { measured: null, detail: "No reserve has a fresh exitability reading." };
    const total = fresh.reduce((sum, pool) => sum + (pool.exitabilityUsd as number), 0);
    return {
      measured: total,
      detail: `${usd(total)} over ${fresh.length} fresh reserves${heldOut(all.length, fresh.length)}.`,
    };
  },

  async historyDays(m) {
    const { fresh } = await m.marketReserves();
    if (fresh.length === 0) return { measured: null, detail: "No reserve has a fresh exitability reading." };
    const lows = await m.dailyLows();
    const days = fresh.map((pool) => lows.find((row) => sameReserve(row, pool))?.days ?? 0);
    const least = Math.min(...days);
    return {
      measured: least,
      detail: `Least-recorded fresh reserve: ${least} of the last ${HISTORY_DAYS} complete days.`,
    };
  },

  async attestedReserves(m) {
    const { fresh } = await m.marketReserves();
    const expiries = await getLatestExpiryByPool(m.context.db);
    const live = fresh.filter((pool) => expiries.some((row) => sameReserve(row, pool) && row.expiry > m.at));
    return {
      measured: live.length,
      detail: `${live.length} of ${fresh.length} fresh reserves carry an unexpired attestation.`,
    };
  },

  async stressFloor(m) {
    const { fresh } = await m.marketReserves();
    const lows = await m.dailyLows();
    const shares = fresh.flatMap((pool) => {
      const row = lows.find((candidate) => sameReserve(candidate, pool));
      const now = pool.exitabilityUsd as number;
      return row === undefined || now <= 0 ? [] : [{ id: pool.id, share: row.lowestDepthUsd / now }];
    });
    if (shares.length === 0) {
      return { measured: null, detail: "No fresh reserve has daily history and a positive exitability to compare." };
    }
    const worst = shares.reduce((a, b) => (b.share < a.share ? b : a));
    const share = Math.round(worst.share * 10_000) / 10_000;
    return {
      measured: share,
      detail: `Worst of ${shares.length} reserves: ${worst.id} (lowest daily ${share} of now).`,
    };
  },

  async attestersBonded(m) {
    const { attestersBonded } = await countStore(m.context.db, ["attestersBonded"]);
    if (attestersBonded === null) {
      return { measured: null, detail: "The registry's events have never been read: no bond can be counted." };
    }
    return {
      measured: attestersBonded,
      detail: `${plural(attestersBonded, "attester", "attesters")} bonded, from the registry's events.`,
    };
  },

  async liquidityRequests(m) {
    const { liquidityRequestsReceived: n } = await countStore(m.context.db, ["liquidityRequestsReceived"]);
    return {
      measured: n as number,
      detail: `${plural(n as number, "liquidity request", "liquidity requests")} received (any pool or asset).`,
    };
  },

  async gradedClaims(m) {
    const { claimsGraded: n } = await countStore(m.context.db, ["claimsGraded"]);
    if (!n) {
      return {
        measured: null,
        detail:
          "The accuracy record is empty: no claim has been graded and no code path grades one yet, so this gate cannot clear.",
      };
    }
    return { measured: n, detail: `${plural(n, "claim", "claims")} graded.` };
  },
};

function sameReserve(row: { chainId: number; address: string }, pool: PoolDimensions): boolean {
  return row.chainId === pool.chainId && row.address.toLowerCase() === pool.address;
}
