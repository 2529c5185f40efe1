import { z } from "zod";
import { FeedValidationError } from "../../errors/feeds";
import { MAX_REPORT_REASONS } from "../../storage/ingestRuns";
import { firstIssue, refuseConflicts, unixSeconds, type RowCounts } from "./checkRows";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();
/**
 * Merkl serialises some integers as numbers and some as decimal strings. Either way a timestamp is Unix seconds within
 * [2015-01-01, now + 5 years]: milliseconds are refused, never divided.
 */
const merklSeconds = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(unixSeconds);

/**
 * One campaign of a Merkl v4 opportunity. `campaignId` is unique only per `distributionChainId`, the chain whose Merkl
 * distributor pays the rewards (it can differ from the opportunity's `chainId`): a campaign is keyed by the two.
 * Merkl v4 always sends `distributionChainId`; a listing without it is read as paid on the
 * opportunity's chain ({@link campaignDistributionChainId}).
 */
export const merklCampaignSchema = z.object({
  campaignId: z.string().min(1),
  distributionChainId: z.number().int().positive().optional(),
  startTimestamp: merklSeconds,
  endTimestamp: merklSeconds,
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

/** One page's envelope: an array; each opportunity is then checked on its own. */
const merklPageSchema = z.array(z.unknown());

/** What {@link fetchMerklOpportunities} read, and whether it reached the listing's end. */
export interface MerklListing extends Omit<RowCounts, "rejectedRows"> {
  opportunities: MerklOpportunity[];
  /** False when the page bound stopped the read before a short page: the source is then `partial`, never ok. */
  complete: boolean;
}

/** Default bound on pages of one read: 100 pages of 100, 10,000 opportunities. */
export const MERKL_MAX_PAGES = 100;

/**
 * Fetches Merkl v4 LIVE and SOON opportunities with their campaigns for the given chains, page by page until a short
 * page (`{merklUrl}/v4/opportunities?campaigns=true&chainId=…&status=LIVE,SOON&items=…&page=…`). Without a status
 * filter Merkl also lists every PAST opportunity (thousands); a PAST opportunity's campaigns have all ended. A read
 * stopped by `maxPages` returns what it read with `complete: false`.
 *
 * Every opportunity must be readable: one that is not (a campaign with a timestamp in milliseconds, a decimal
 * `amount`, a wrong shape) rejects the whole read (FeedValidationError naming it), because a campaign left out would
 * lift the cap it puts on a claim. A campaign key (distribution chain, campaign id) listed twice with different
 * values is refused in every copy and counted (`conflicts`); identical copies are kept once.
 *
 * @param parameters `merklUrl` (e.g. `https://api.merkl.xyz`), `chainIds`, page size `items` (100), `maxPages`
 *   ({@link MERKL_MAX_PAGES}).
 */
export async function fetchMerklOpportunities(
  parameters: { merklUrl: string; chainIds: number[]; items?: number; maxPages?: number } & FeedRequestOptions,
): Promise<MerklListing> {
  const { merklUrl, chainIds, items = 100, maxPages = MERKL_MAX_PAGES, ...options } = parameters;
  const opportunities: MerklOpportunity[] = [];
  let complete = false;
  for (let page = 0; page < maxPages; page++) {
    const query = new URLSearchParams({
      campaigns: "true",
      chainId: chainIds.join(","),
      status: "LIVE,SOON",
      items: String(items),
      page: String(page),
    });
    const url = `${joinUrl(merklUrl, "/v4/opportunities")}?${query.toString()}`;
    const batch = await fetchJson({ ...options, source: "merkl", url, schema: merklPageSchema });
    batch.forEach((item, i) => {
      const parsed = merklOpportunitySchema.safeParse(item);
      if (parsed.success) opportunities.push(parsed.data);
      else {
        const id = (item as { id?: unknown } | null)?.id;
        const issue = firstIssue(
          `page ${page} [${i}]${typeof id === "string" ? ` (opportunity ${id})` : ""}`,
          parsed.error,
        );
        options.log?.(`merkl: rejected ${url}: ${issue}`);
        throw new FeedValidationError({
          source: "merkl",
          url,
          issues: [`${issue}: an opportunity or campaign that cannot be read fails the whole read`],
        });
      }
    });
    if (batch.length < items) {
      complete = true;
      break;
    }
  }
  return { ...withoutConflicts(opportunities), complete };
}

/**
 * The opportunities with every campaign whose key (distribution chain, campaign id) is listed with different values
 * removed, and identical repeats of a campaign kept once (its first listing).
 */
function withoutConflicts(opportunities: MerklOpportunity[]): Omit<MerklListing, "complete"> {
  const listed = opportunities.flatMap((o, index) =>
    o.campaigns.map((campaign) => ({
      index,
      campaign: { ...campaign, distributionChainId: campaignDistributionChainId(campaign, o) },
    })),
  );
  const { rows, conflictKeys } = refuseConflicts(
    listed,
    ({ campaign }) => `${campaign.distributionChainId}:${campaign.campaignId}`,
    ({ campaign }) => JSON.stringify(campaign),
  );
  if (rows.length === listed.length) return { opportunities, conflicts: 0, reasons: [] };
  const kept = new Set(rows.map((row) => row.campaign));
  const byIndex = new Map<number, MerklCampaign[]>();
  for (const { index, campaign } of listed) {
    if (!kept.has(campaign)) continue;
    byIndex.set(index, [...(byIndex.get(index) ?? []), campaign]);
  }
  return {
    opportunities: opportunities.map((o, index) => ({ ...o, campaigns: byIndex.get(index) ?? [] })),
    conflicts: conflictKeys.length,
    reasons: conflictKeys
      .slice(0, MAX_REPORT_REASONS)
      .map(
        (key) =>
          `campaign ${JSON.stringify(key)} (distribution chain:campaign id) answered twice with different values`,
      ),
  };
}
