import type { ObservedCampaign } from "../../storage/campaigns";
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
 * One campaign (a `campaigns` row once stored) per campaign of every Merkl opportunity, keyed by its distribution
 * chain and campaign id, identifiers and reward tokens in lower case, each with its own status at `observedAt`
 * ({@link campaignStatus}).
 *
 * @example
 * campaignRows({ opportunities, observedAt: 1_790_000_000 });
 * // [{ id: "0x…", distributionChainId: 1, chainId: 1, … }]
 */
export function campaignRows(parameters: {
  opportunities: readonly MerklOpportunity[];
  /** When the feed was read, Unix seconds. */
  observedAt: number;
}): ObservedCampaign[] {
  return parameters.opportunities.flatMap((o) =>
    o.campaigns.map((c): ObservedCampaign => ({
      id: c.campaignId,
      distributionChainId: campaignDistributionChainId(c, o),
      chainId: o.chainId,
      opportunityId: o.id,
      identifier: o.identifier.toLowerCase(),
      name: o.name,
      type: o.type,
      status: campaignStatus(c, parameters.observedAt),
      rewardToken: c.rewardToken.address.toLowerCase(),
      amount: c.amount,
      aprPercent: o.apr ?? null,
      startsAt: c.startTimestamp,
      endsAt: c.endTimestamp,
      observedAt: parameters.observedAt,
    })),
  );
}
