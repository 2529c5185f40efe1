import { z } from "zod";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();
/** Merkl serialises some integers as numbers and some as decimal strings. */
const unixSeconds = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

export const merklCampaignSchema = z.object({
  campaignId: z.string().min(1),
  startTimestamp: unixSeconds,
  endTimestamp: unixSeconds,
  /** Raw token amount (base units), decimal string. */
  amount: z.string().regex(/^\d+$/),
  rewardToken: z.object({
    address: z.string(),
    symbol: z.string().nullable().optional(),
    decimals: z.number().int().nullable().optional(),
  }),
});
export type MerklCampaign = z.infer<typeof merklCampaignSchema>;

/** One opportunity of Merkl v4 `GET /v4/opportunities?campaigns=true`. `apr` is a percent. */
export const merklOpportunitySchema = z.object({
  id: z.string().min(1),
  chainId: z.number().int().positive(),
  identifier: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.string(),
  apr: finite.nullable().optional(),
  tvl: finite.nullable().optional(),
  campaigns: z.array(merklCampaignSchema).optional().default([]),
});
export type MerklOpportunity = z.infer<typeof merklOpportunitySchema>;

export const merklOpportunitiesResponseSchema = z.array(merklOpportunitySchema);

/**
 * Fetches Merkl v4 opportunities with their campaigns for the given chains, page by page
 * (`{merklUrl}/v4/opportunities?campaigns=true&chainId=…&items=…&page=…`), each page validated whole.
 *
 * @param parameters `merklUrl` (e.g. `https://api.merkl.xyz`), `chainIds`, page size `items` (100), `maxPages` (20).
 */
export async function fetchMerklOpportunities(
  parameters: { merklUrl: string; chainIds: number[]; items?: number; maxPages?: number } & FeedRequestOptions,
): Promise<MerklOpportunity[]> {
  const { merklUrl, chainIds, items = 100, maxPages = 20, ...options } = parameters;
  const all: MerklOpportunity[] = [];
  for (let page = 0; page < maxPages; page++) {
    const query = new URLSearchParams({
      campaigns: "true",
      chainId: chainIds.join(","),
      items: String(items),
      page: String(page),
    });
    const batch = await fetchJson({
      ...options,
      source: "merkl",
      url: `${joinUrl(merklUrl, "/v4/opportunities")}?${query.toString()}`,
      schema: merklOpportunitiesResponseSchema,
    });
    all.push(...batch);
    if (batch.length < items) break;
  }
  return all;
}
