import type { Kysely } from "kysely";
import type { ActivityKind } from "../model/activityKinds";
import { chunksOf } from "./batches";
import type { Campaign, Database } from "./schema";

/** The two announcements of a campaign. */
export type CampaignAnnouncementKind = Extract<ActivityKind, "campaign.started" | "campaign.ended">;

/**
 * Campaigns whose start (`campaign.started`) or end (`campaign.ended`) is at or before `now` and that have not been
 * announced with that kind yet, by that time then id.
 */
export async function listUnannouncedCampaigns(
  db: Kysely<Database>,
  parameters: { kind: CampaignAnnouncementKind; now: number },
): Promise<Campaign[]> {
  const column = parameters.kind === "campaign.started" ? "start_ts" : "end_ts";
  return db
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
            .whereRef("campaign_announcements.campaign_id", "=", "campaigns.id")
            .where("campaign_announcements.kind", "=", parameters.kind),
        ),
      ),
    )
    .orderBy(column)
    .orderBy("id")
    .execute();
}

/**
 * Records that a campaign's start or end was announced, once: returns false (and writes nothing) when it already was.
 * Call it in the transaction that appends the event, and append only when it returns true.
 *
 * @param db an open transaction.
 */
export async function recordCampaignAnnouncement(
  db: Kysely<Database>,
  parameters: { campaignId: string; kind: CampaignAnnouncementKind; at: number },
): Promise<boolean> {
  const { campaignId, kind, at } = parameters;
  return (await recordCampaignAnnouncements(db, { campaignIds: [campaignId], kind, at })).length > 0;
}

/**
 * {@link recordCampaignAnnouncement} for many campaigns: one multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING`
 * per chunk. Call it in the transaction that appends the events, and append only those of the ids it returns.
 *
 * @param db an open transaction.
 * @returns the ids of the campaigns recorded now (not announced before), in the order given.
 */
export async function recordCampaignAnnouncements(
  db: Kysely<Database>,
  parameters: { campaignIds: readonly string[]; kind: CampaignAnnouncementKind; at: number },
): Promise<string[]> {
  const { kind, at } = parameters;
  const campaignIds = [...new Set(parameters.campaignIds)];
  const recorded = new Set<string>();
  for (const chunk of chunksOf(campaignIds, 3)) {
    const rows = await db
      .insertInto("campaign_announcements")
      .values(chunk.map((campaignId) => ({ campaign_id: campaignId, kind, at })))
      .onConflict((oc) => oc.columns(["campaign_id", "kind"]).doNothing())
      .returning("campaign_id")
      .execute();
    for (const row of rows) recorded.add(row.campaign_id);
  }
  return campaignIds.filter((id) => recorded.has(id));
}
