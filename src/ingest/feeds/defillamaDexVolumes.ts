import { z } from "zod";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

/**
 * One volume of a DEX series. Real series hold negative values (adapter corrections, e.g. a protocol's `total1y` of
 * −6,212,564) and missing ones (null): such a value becomes null on its own, never rejecting the response.
 */
const volume = z
  .unknown()
  .transform((value) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null));

/** DefiLlama's `GET /overview/dexs/{chain}` (fields we use). Chart timestamps are Unix seconds (UTC midnight). */
export const dexOverviewResponseSchema = z.object({
  chain: z.string().nullable().optional(),
  total24h: volume.optional(),
  totalDataChart: z.array(z.tuple([z.number().int().nonnegative(), volume])),
  totalDataChartBreakdown: z.array(z.tuple([z.number().int().nonnegative(), z.record(z.string(), volume)])),
  protocols: z.array(
    z.object({
      name: z.string(),
      displayName: z.string().nullable().optional(),
      module: z.string().nullable().optional(),
      total24h: volume.optional(),
      chains: z.array(z.string()).nullable().optional(),
    }),
  ),
});
export type DexOverview = z.infer<typeof dexOverviewResponseSchema>;

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
 * Fetches DefiLlama's dex volume overview for one chain (`{apiUrl}/overview/dexs/{chain}`), validated.
 *
 * @param parameters `apiUrl` (e.g. `https://api.llama.fi`), `chain` slug, shared request options.
 */
export async function fetchDexOverview(
  parameters: { apiUrl: string; chain: string } & FeedRequestOptions,
): Promise<DexOverview> {
  const { apiUrl, chain, ...options } = parameters;
  return fetchJson({
    ...options,
    source: "defillama-dexs",
    url: joinUrl(apiUrl, `/overview/dexs/${encodeURIComponent(chain)}`),
    schema: dexOverviewResponseSchema,
  });
}
