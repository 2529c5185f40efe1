import { z } from "zod";
import { checkRows, timestampProblem, usdAmount, type RowCheck } from "./checkRows";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();
const optionalNumber = finite.nullable().optional();

/** One pool of DefiLlama's yields API `GET /pools` (fields we use; others are ignored). */
export const defillamaPoolSchema = z.object({
  /** DefiLlama's pool uuid. */
  pool: z.string().min(1),
  chain: z.string(),
  project: z.string(),
  symbol: z.string(),
  tvlUsd: usdAmount,
  /** Percent (4.2 means 4.2 %). */
  apy: optionalNumber,
  apyBase: optionalNumber,
  apyReward: optionalNumber,
  rewardTokens: z.array(z.string()).nullable().optional(),
  underlyingTokens: z.array(z.string()).nullable().optional(),
  poolMeta: z.string().nullable().optional(),
  volumeUsd1d: optionalNumber,
});
export type DefillamaPool = z.infer<typeof defillamaPoolSchema>;

/** The `/pools` envelope; its rows are checked one by one ({@link checkRows}). */
export const defillamaPoolsResponseSchema = z.object({
  status: z.literal("success"),
  data: z.array(z.unknown()),
});

/** One point of `GET /chart/{pool}`. */
export const defillamaChartPointSchema = z.object({
  timestamp: z.string().superRefine((value, ctx) => {
    const ms = Date.parse(value);
    const problem = Number.isNaN(ms) ? "timestamp must be an ISO date-time" : timestampProblem(Math.floor(ms / 1000));
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(value)}: ${problem}` });
  }),
  tvlUsd: usdAmount,
  apy: optionalNumber,
  apyBase: optionalNumber,
  apyReward: optionalNumber,
});
export type DefillamaChartPoint = z.infer<typeof defillamaChartPointSchema>;

/** The `/chart/{pool}` envelope; its points are checked one by one ({@link checkRows}). */
export const defillamaChartResponseSchema = z.object({
  status: z.literal("success"),
  data: z.array(z.unknown()),
});

/**
 * Fetches every pool of DefiLlama's yields API (`{yieldsUrl}/pools`). The envelope (`status: "success"`, `data` an
 * array) is validated whole; the pools one by one: a pool not of the documented shape or with an implausible `tvlUsd`
 * is skipped and counted, and a pool id (any letter case) listed twice with different values is refused in every copy.
 *
 * @param parameters `yieldsUrl` (e.g. `https://yields.llama.fi`) plus the shared request options.
 * @returns the usable pools and what was left out; throws FeedRequestError or FeedValidationError (envelope).
 */
export async function fetchDefillamaPools(
  parameters: { yieldsUrl: string } & FeedRequestOptions,
): Promise<RowCheck<DefillamaPool> & { answered: number }> {
  const { yieldsUrl, ...options } = parameters;
  const body = await fetchJson({
    ...options,
    source: "defillama-yields",
    url: joinUrl(yieldsUrl, "/pools"),
    schema: defillamaPoolsResponseSchema,
  });
  const checked = checkRows({
    items: body.data,
    path: "data",
    schema: defillamaPoolSchema,
    key: (pool) => pool.pool.toLowerCase(),
    keyName: "pool",
  });
  return { ...checked, answered: body.data.length };
}

/**
 * Fetches one pool's history from DefiLlama's yields API (`{yieldsUrl}/chart/{poolId}`): the envelope validated
 * whole, the points one by one (a point of the wrong shape, an implausible `tvlUsd` or a timestamp out of range is
 * skipped and counted; two different points at one timestamp are both refused).
 *
 * @returns the usable points, oldest first as the API gives them, and what was left out.
 */
export async function fetchDefillamaChart(
  parameters: { yieldsUrl: string; poolId: string } & FeedRequestOptions,
): Promise<RowCheck<DefillamaChartPoint>> {
  const { yieldsUrl, poolId, ...options } = parameters;
  const body = await fetchJson({
    ...options,
    source: "defillama-chart",
    url: joinUrl(yieldsUrl, `/chart/${encodeURIComponent(poolId)}`),
    schema: defillamaChartResponseSchema,
  });
  return checkRows({
    items: body.data,
    path: "data",
    schema: defillamaChartPointSchema,
    key: (point) => new Date(Date.parse(point.timestamp)).toISOString(),
    keyName: "timestamp",
  });
}
