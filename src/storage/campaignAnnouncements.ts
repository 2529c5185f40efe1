import type { Kysely } from "kysely";
import type { ActivityKind } from "../model/activityKinds";
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
  const result = await db
    .insertInto("campaign_announcements")
    .values({ campaign_id: parameters.campaignId, kind: parameters.kind, at: parameters.at })
    .onConflict((oc) => oc.columns(["campaign_id", "kind"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
