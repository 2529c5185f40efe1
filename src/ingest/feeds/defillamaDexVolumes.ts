import { z } from "zod";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();

/** DefiLlama's `GET /overview/dexs/{chain}` (fields we use). Chart timestamps are Unix seconds (UTC midnight). */
export const dexOverviewResponseSchema = z.object({
  chain: z.string().nullable().optional(),
  total24h: finite.nullable().optional(),
  totalDataChart: z.array(z.tuple([z.number().int().nonnegative(), finite.nonnegative()])),
  totalDataChartBreakdown: z.array(
    z.tuple([z.number().int().nonnegative(), z.record(z.string(), finite.nonnegative())]),
  ),
  protocols: z.array(
    z.object({
      name: z.string(),
      displayName: z.string().nullable().optional(),
      module: z.string().nullable().optional(),
      total24h: finite.nullable().optional(),
      chains: z.array(z.string()).nullable().optional(),
    }),
  ),
});
export type DexOverview = z.infer<typeof dexOverviewResponseSchema>;

/** DefiLlama's chain slug for the chains the service knows (path segment of `/overview/dexs/{chain}`). */
export const DEFILLAMA_CHAINS: Record<number, { name: string; slug: string }> = {
  1: { name: "Ethereum", slug: "ethereum" },
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
