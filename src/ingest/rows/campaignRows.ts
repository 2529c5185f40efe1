import type { Campaign } from "../../storage/schema";
import { campaignDistributionChainId, type MerklOpportunity } from "../feeds/merkl";

/**
 * A campaign's own status at `now` (Unix seconds) from its start and end: `SOON` before its start, `PAST` from its
 * end on, else `LIVE`. Never its opportunity's: a LIVE opportunity lists its past campaigns too.
 */
export function campaignStatus(campaign: { startTimestamp: number; endTimestamp: number }, now: number): string {
  if (now < campaign.startTimestamp) return "SOON";
  return now >= campaign.endTimestamp ? "PAST" : "LIVE";
}

/**
 * One `campaigns` row per campaign of every Merkl opportunity, keyed by its distribution chain and campaign id,
 * identifiers and reward tokens in lower case, each with its own status at `observedAt` ({@link campaignStatus}).
 *
 * @example
 * campaignRows({ opportunities, observedAt: 1_790_000_000 });
 * // [{ id: "0x…", distribution_chain_id: 1, chain_id: 1, … }]
 */
export function campaignRows(parameters: {
  opportunities: readonly MerklOpportunity[];
  /** When the feed was read, Unix seconds. */
  observedAt: number;
}): Campaign[] {
  return parameters.opportunities.flatMap((o) =>
    o.campaigns.map((c): Campaign => ({
      id: c.campaignId,
      distribution_chain_id: campaignDistributionChainId(c, o),
      chain_id: o.chainId,
      opportunity_id: o.id,
      identifier: o.identifier.toLowerCase(),
      name: o.name,
      type: o.type,
      status: campaignStatus(c, parameters.observedAt),
      reward_token: c.rewardToken.address.toLowerCase(),
      amount: c.amount,
      apr_percent: o.apr ?? null,
      start_ts: c.startTimestamp,
      end_ts: c.endTimestamp,
      observed_at: parameters.observedAt,
    })),
  );
}
