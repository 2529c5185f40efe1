import type { Kysely } from "kysely";
import type { ActivityKind } from "../model/activityKinds";
import { chunksOf } from "./batches";
import { campaignKeyText, toObservedCampaign, type CampaignKey, type ObservedCampaign } from "./campaigns";
import type { Database } from "./schema";

/** The two announcements of a campaign. */
export type CampaignAnnouncementKind = Extract<ActivityKind, "campaign.started" | "campaign.ended">;

/**
 * Campaigns whose start (`campaign.started`) or end (`campaign.ended`) is at or before `now` and that have not been
 * announced with that kind yet, by that time, then id, then distribution chain.
 */
export async function listUnannouncedCampaigns(
  db: Kysely<Database>,
  parameters: { kind: CampaignAnnouncementKind; now: number },
): Promise<ObservedCampaign[]> {
  const column = parameters.kind === "campaign.started" ? "start_ts" : "end_ts";
  const rows = await db
    .selectFrom("campaigns")
    .selectAll()
    .where(column, "is not", null)
    .where(column, "<=", parameters.now)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("campaign_announcements")
            .select("campaign_announcements.campaign_id")
            .whereRef("campaign_announcements.distribution_chain_id", "=", "campaigns.distribution_chain_id")
            .whereRef("campaign_announcements.campaign_id", "=", "campaigns.id")
            .where("campaign_announcements.kind", "=", parameters.kind),
        ),
      ),
    )
    .orderBy(column)
    .orderBy("id")
    .orderBy("distribution_chain_id")
    .execute();
  return rows.map(toObservedCampaign);
}

/**
 * Records that a campaign's start or end was announced, once per (distribution chain, campaign id, kind): returns
 * false (and writes nothing) when it already was. Call it in the transaction that appends the event, and append only
 * when it returns true.
 *
 * @param db an open transaction.
 */
export async function recordCampaignAnnouncement(
  db: Kysely<Database>,
  parameters: { campaign: CampaignKey; kind: CampaignAnnouncementKind; at: number },
): Promise<boolean> {
  const { campaign, kind, at } = parameters;
  return (await recordCampaignAnnouncements(db, { campaigns: [campaign], kind, at })).length > 0;
}

/**
 * {@link recordCampaignAnnouncement} for many campaigns: one multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING`
 * per chunk. Call it in the transaction that appends the events, and append only those of the keys it returns.
 *
 * @param db an open transaction.
 * @returns the keys of the campaigns recorded now (not announced before), in the order given, each once.
 */
export async function recordCampaignAnnouncements(
  db: Kysely<Database>,
  parameters: { campaigns: readonly CampaignKey[]; kind: CampaignAnnouncementKind; at: number },
): Promise<CampaignKey[]> {
  const { kind, at } = parameters;
  const campaigns = [...new Map(parameters.campaigns.map((key) => [campaignKeyText(key), key])).values()];
  const recorded = new Set<string>();
  for (const chunk of chunksOf(campaigns, 4)) {
    const rows = await db
      .insertInto("campaign_announcements")
      .values(
        chunk.map((key) => ({
          distribution_chain_id: key.distributionChainId,
          campaign_id: key.campaignId,
          kind,
          at,
        })),
      )
      .onConflict((oc) => oc.columns(["distribution_chain_id", "campaign_id", "kind"]).doNothing())
      .returning(["distribution_chain_id", "campaign_id"])
      .execute();
    for (const row of rows) {
      recorded.add(
        campaignKeyText({ distributionChainId: Number(row.distribution_chain_id), campaignId: row.campaign_id }),
      );
    }
  }
  return campaigns.filter((key) => recorded.has(campaignKeyText(key)));
}
