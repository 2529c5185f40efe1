import type { EvaluatedPool } from "./evaluateModel";

/** A line of the evaluation's input that cannot be read: its number (from 1) and what to fix. */
export class EvaluationInputError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "EvaluationInputError";
  }
}

/** Daily lows read from NDJSON, as the walk-forward evaluation takes them. */
export interface EvaluationInput {
  /**
   * Each pool's daily lows, pools in the order they first appear, days in date order; its stated depths (`depths`: the
   * days with a `depthUsd`) and campaign ends (`campaignEnds`: 00:00 UTC of each `campaignEnd` day, Unix s), as
   * `evaluateModel` applies them.
   */
  pools: (EvaluatedPool & { daily: { day: string; minDepthUsd: number; depthUsd: number | null }[] })[];
  /** Known campaign ends per pool (`YYYY-MM-DD`, sorted, unique). */
  campaignEnds: Map<string, string[]>;
  /** The latest date of any daily low: the last complete day of the evaluation. Null with no daily low. */
  lastDay: string | null;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_POOL_LENGTH = 200;

function isUtcDay(value: unknown): value is string {
  if (typeof value !== "string" || !DAY_RE.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * Reads NDJSON daily lows: one JSON object a line, either a daily low `{"pool", "date": "YYYY-MM-DD", "lowUsd",
 * "depthUsd"?}` (lowUsd ≥ 0: the lowest depth observed that UTC day; depthUsd, ≥ 0 or null: the depth an attestation
 * issued that day states, the anchor of that day's claim) or a campaign end `{"pool", "campaignEnd": "YYYY-MM-DD"}`
 * (the campaign taken to end at 00:00 UTC of that day: it caps the claims made before it as issuance would). Blank
 * lines are skipped; lines may come in any order. The same pool and date twice is accepted when both lines say the
 * same, refused otherwise. A campaign end of a pool with no daily low is kept in `campaignEnds` and changes nothing.
 *
 * @param text the whole input.
 * @returns the pools, campaign ends and the last day.
 * @throws EvaluationInputError naming the first bad line and what to fix.
 */
export function parseEvaluationInput(text: string): EvaluationInput {
  const pools = new Map<string, Map<string, { low: number; depth: number | null; line: number }>>();
  const campaignEnds = new Map<string, Set<string>>();
  let lastDay: string | null = null;
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const raw = lines[index].trim();
    if (raw === "") continue;
    const fail = (reason: string) => new EvaluationInputError(line, reason);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw fail("not JSON; each line must be one JSON object");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw fail('not a JSON object; write {"pool","date","lowUsd"} or {"pool","campaignEnd"}');
    }
    const entry = value as Record<string, unknown>;
    const { pool } = entry;
    if (typeof pool !== "string" || pool.trim() === "" || pool.length > MAX_POOL_LENGTH) {
      throw fail(`"pool" must be a non-empty string of at most ${MAX_POOL_LENGTH} characters, got ${show(pool)}`);
    }
    if ("campaignEnd" in entry) {
      const extra = Object.keys(entry).filter((key) => key !== "pool" && key !== "campaignEnd");
      if (extra.length > 0) throw fail(`unknown field ${show(extra[0])} on a campaign end line (pool, campaignEnd)`);
      if (!isUtcDay(entry.campaignEnd)) {
        throw fail(`"campaignEnd" must be a UTC day YYYY-MM-DD, got ${show(entry.campaignEnd)}`);
      }
      const ends = campaignEnds.get(pool) ?? new Set<string>();
      ends.add(entry.campaignEnd);
      campaignEnds.set(pool, ends);
      continue;
    }
    const extra = Object.keys(entry).filter((key) => !["pool", "date", "lowUsd", "depthUsd"].includes(key));
    if (extra.length > 0) throw fail(`unknown field ${show(extra[0])} (a daily low has pool, date, lowUsd, depthUsd)`);
    if (!isUtcDay(entry.date)) throw fail(`"date" must be a UTC day YYYY-MM-DD, got ${show(entry.date)}`);
    const { lowUsd, depthUsd } = entry;
    if (typeof lowUsd !== "number" || !Number.isFinite(lowUsd) || lowUsd < 0) {
      throw fail(`"lowUsd" must be a finite number ≥ 0 (USD), got ${show(lowUsd)}`);
    }
    if (depthUsd !== undefined && depthUsd !== null) {
      if (typeof depthUsd !== "number" || !Number.isFinite(depthUsd) || depthUsd < 0) {
        throw fail(`"depthUsd" must be a finite number ≥ 0 (USD) or null, got ${show(depthUsd)}`);
      }
    }
    const depth = typeof depthUsd === "number" ? depthUsd : null;
    const days = pools.get(pool) ?? new Map<string, { low: number; depth: number | null; line: number }>();
    const before = days.get(entry.date);
    if (before !== undefined) {
      if (before.low !== lowUsd || before.depth !== depth) {
        throw fail(
          `pool ${show(pool)} on ${entry.date} is already on line ${before.line} with another value; keep one line per pool and date`,
        );
      }
      continue;
    }
    days.set(entry.date, { low: lowUsd, depth, line });
    pools.set(pool, days);
    if (lastDay === null || entry.date > lastDay) lastDay = entry.date;
  }
  const endsByPool = new Map([...campaignEnds.entries()].map(([pool, ends]) => [pool, [...ends].sort()]));
  return {
    pools: [...pools.entries()].map(([pool, days]) => {
      const daily = [...days.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([day, { low, depth }]) => ({ day, minDepthUsd: low, depthUsd: depth }));
      const depths = daily.flatMap(({ day, depthUsd }) => (depthUsd === null ? [] : [{ day, depthUsd }]));
      const ends = (endsByPool.get(pool) ?? []).map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
      return {
        pool,
        daily,
        ...(depths.length > 0 ? { depths } : {}),
        ...(ends.length > 0 ? { campaignEnds: ends } : {}),
      };
    }),
    campaignEnds: endsByPool,
    lastDay,
  };
}
