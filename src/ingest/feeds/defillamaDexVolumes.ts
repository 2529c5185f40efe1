import { z } from "zod";
import { addCounts, checkRows, MAX_USD, MIN_POSITIVE_USD, unixSeconds, type RowCounts } from "./checkRows";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

/**
 * One volume of a DEX series. Real series hold negative values (adapter corrections, e.g. a protocol's `total1y` of
 * −6,212,564) and missing ones (null): such a value becomes null on its own (dropped and counted later), never
 * rejecting anything else. A number above 1e13 USD, or positive below 1e-6, is implausible: it refuses its row.
 */
const volume = z
  .unknown()
  .superRefine((value, ctx) => {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return;
    if (value > MAX_USD) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${value} above 1e13` });
    else if (value > 0 && value < MIN_POSITIVE_USD) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${value} below 1e-6 (and not 0)` });
    }
  })
  .transform((value) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null));

/** One point of `totalDataChart`: Unix seconds (UTC midnight) and the chain's volume. */
export const dexChartPointSchema = z.tuple([unixSeconds, volume]);
/** One point of `totalDataChartBreakdown`: Unix seconds and the volume per protocol. */
export const dexBreakdownPointSchema = z.tuple([unixSeconds, z.record(z.string(), volume)]);
/** One protocol of the overview. */
export const dexProtocolSchema = z.object({
  name: z.string(),
  displayName: z.string().nullable().optional(),
  module: z.string().nullable().optional(),
  total24h: volume.optional(),
  chains: z.array(z.string()).nullable().optional(),
});

/** The envelope of DefiLlama's `GET /overview/dexs/{chain}` (fields we use); its series are checked row by row. */
export const dexOverviewResponseSchema = z.object({
  chain: z.string().nullable().optional(),
  total24h: volume.optional(),
  totalDataChart: z.array(z.unknown()),
  totalDataChartBreakdown: z.array(z.unknown()),
  protocols: z.array(z.unknown()),
});

/** A chain's DEX overview, its series' rows checked (rows of a wrong shape or in conflict left out). */
export interface DexOverview {
  chain?: string | null | undefined;
  total24h?: number | null | undefined;
  totalDataChart: z.infer<typeof dexChartPointSchema>[];
  totalDataChartBreakdown: z.infer<typeof dexBreakdownPointSchema>[];
  protocols: z.infer<typeof dexProtocolSchema>[];
}

/**
 * DefiLlama's chain name and slug for the chains the service knows (path segment of `/overview/dexs/{chain}`, prefix
 * of a coin key). A tracked chain missing here is named in the DefiLlama sources' reports, never skipped in silence.
 */
export const DEFILLAMA_CHAINS: Record<number, { name: string; slug: string }> = {
  1: { name: "Ethereum", slug: "ethereum" },
  10: { name: "OP Mainnet", slug: "optimism" },
  42161: { name: "Arbitrum", slug: "arbitrum" },
  8453: { name: "Base", slug: "base" },
};

/**
 * Fetches DefiLlama's dex volume overview for one chain (`{apiUrl}/overview/dexs/{chain}`): the envelope validated
 * whole, then each row of its series and protocols on its own (a row of the wrong shape, a timestamp out of range or an
 * implausible volume is skipped and counted; two different points at one timestamp are both refused).
 *
 * @param parameters `apiUrl` (e.g. `https://api.llama.fi`), `chain` slug, shared request options.
 */
export async function fetchDexOverview(
  parameters: { apiUrl: string; chain: string } & FeedRequestOptions,
): Promise<{ overview: DexOverview } & RowCounts> {
  const { apiUrl, chain, ...options } = parameters;
  const body = await fetchJson({
    ...options,
    source: "defillama-dexs",
    url: joinUrl(apiUrl, `/overview/dexs/${encodeURIComponent(chain)}`),
    schema: dexOverviewResponseSchema,
  });
  const byTime = { key: ([ts]: readonly [number, unknown]) => String(ts), keyName: "timestamp" };
  const chart = checkRows({
    items: body.totalDataChart,
    path: "totalDataChart",
    schema: dexChartPointSchema,
    ...byTime,
  });
  const breakdown = checkRows({
    items: body.totalDataChartBreakdown,
    path: "totalDataChartBreakdown",
    schema: dexBreakdownPointSchema,
    ...byTime,
  });
  const protocols = checkRows({ items: body.protocols, path: "protocols", schema: dexProtocolSchema });
  return {
    overview: {
      chain: body.chain,
      total24h: body.total24h,
      totalDataChart: chart.rows,
      totalDataChartBreakdown: breakdown.rows,
      protocols: protocols.rows,
    },
    ...addCounts(chart, breakdown, protocols),
  };
}
