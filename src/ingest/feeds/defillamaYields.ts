import { z } from "zod";
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
  tvlUsd: finite.nonnegative(),
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

export const defillamaPoolsResponseSchema = z.object({
  status: z.literal("success"),
  data: z.array(defillamaPoolSchema),
});

/** One point of `GET /chart/{pool}`. */
export const defillamaChartPointSchema = z.object({
  timestamp: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: "timestamp must be an ISO date-time" }),
  tvlUsd: finite.nonnegative(),
  apy: optionalNumber,
  apyBase: optionalNumber,
  apyReward: optionalNumber,
});
export type DefillamaChartPoint = z.infer<typeof defillamaChartPointSchema>;

export const defillamaChartResponseSchema = z.object({
  status: z.literal("success"),
  data: z.array(defillamaChartPointSchema),
});

/**
 * Fetches every pool of DefiLlama's yields API (`{yieldsUrl}/pools`), validated.
 *
 * @param parameters `yieldsUrl` (e.g. `https://yields.llama.fi`) plus the shared request options.
 * @returns the pools; throws FeedRequestError or FeedValidationError.
 */
export async function fetchDefillamaPools(
  parameters: { yieldsUrl: string } & FeedRequestOptions,
): Promise<DefillamaPool[]> {
  const { yieldsUrl, ...options } = parameters;
  const body = await fetchJson({
    ...options,
    source: "defillama-yields",
    url: joinUrl(yieldsUrl, "/pools"),
    schema: defillamaPoolsResponseSchema,
  });
  return body.data;
}

/**
 * Fetches one pool's history from DefiLlama's yields API (`{yieldsUrl}/chart/{poolId}`), validated.
 *
 * @returns the points, oldest first as the API gives them.
 */
export async function fetchDefillamaChart(
  parameters: { yieldsUrl: string; poolId: string } & FeedRequestOptions,
): Promise<DefillamaChartPoint[]> {
  const { yieldsUrl, poolId, ...options } = parameters;
  const body = await fetchJson({
    ...options,
    source: "defillama-chart",
    url: joinUrl(yieldsUrl, `/chart/${encodeURIComponent(poolId)}`),
    schema: defillamaChartResponseSchema,
  });
  return body.data;
}
