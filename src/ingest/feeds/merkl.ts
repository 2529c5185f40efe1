import { z } from "zod";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();
/** Merkl serialises some integers as numbers and some as decimal strings. */
const unixSeconds = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

/**
 * One campaign of a Merkl v4 opportunity. `campaignId` is unique only per `distributionChainId`, the chain whose Merkl
 * distributor pays the rewards (it can differ from the opportunity's `chainId`): a campaign is keyed by the two
 * (DESIGN §12). Merkl v4 always sends `distributionChainId`; a listing without it is read as paid on the
 * opportunity's chain ({@link campaignDistributionChainId}).
 */
export const merklCampaignSchema = z.object({
  campaignId: z.string().min(1),
  distributionChainId: z.number().int().positive().optional(),
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

/** The chain that pays a campaign: its `distributionChainId`, else (a listing without one) the opportunity's chain. */
export function campaignDistributionChainId(campaign: MerklCampaign, opportunity: { chainId: number }): number {
  return campaign.distributionChainId ?? opportunity.chainId;
}

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

/** What {@link fetchMerklOpportunities} read, and whether it reached the listing's end. */
export interface MerklListing {
  opportunities: MerklOpportunity[];
  /** False when the page bound stopped the read before a short page: the source is then `partial`, never ok. */
  complete: boolean;
}

/** Default bound on pages of one read: 100 pages of 100, 10,000 opportunities. */
export const MERKL_MAX_PAGES = 100;

/**
 * Fetches Merkl v4 LIVE and SOON opportunities with their campaigns for the given chains, page by page until a short
 * page (`{merklUrl}/v4/opportunities?campaigns=true&chainId=…&status=LIVE,SOON&items=…&page=…`), each page validated
 * whole. Without a status filter Merkl also lists every PAST opportunity (thousands); a PAST opportunity's campaigns
 * have all ended. A read stopped by `maxPages` returns what it read with `complete: false`.
 *
 * @param parameters `merklUrl` (e.g. `https://api.merkl.xyz`), `chainIds`, page size `items` (100), `maxPages`
 *   ({@link MERKL_MAX_PAGES}).
 */
export async function fetchMerklOpportunities(
  parameters: { merklUrl: string; chainIds: number[]; items?: number; maxPages?: number } & FeedRequestOptions,
): Promise<MerklListing> {
  const { merklUrl, chainIds, items = 100, maxPages = MERKL_MAX_PAGES, ...options } = parameters;
  const opportunities: MerklOpportunity[] = [];
  for (let page = 0; page < maxPages; page++) {
    const query = new URLSearchParams({
      campaigns: "true",
      chainId: chainIds.join(","),
      status: "LIVE,SOON",
      items: String(items),
      page: String(page),
    });
    const batch = await fetchJson({
      ...options,
      source: "merkl",
      url: `${joinUrl(merklUrl, "/v4/opportunities")}?${query.toString()}`,
      schema: merklOpportunitiesResponseSchema,
    });
    opportunities.push(...batch);
    if (batch.length < items) return { opportunities, complete: true };
  }
  return { opportunities, complete: false };
}
