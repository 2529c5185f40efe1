import type { Kysely } from "kysely";
import type { Campaign, Database } from "./schema";

/** Inserts or refreshes campaigns by id (Merkl's campaign id). Campaigns no longer listed are kept as history. */
export async function upsertCampaigns(db: Kysely<Database>, rows: Campaign[]): Promise<void> {
  for (const row of rows) {
    const { id, ...rest } = row;
    await db
      .insertInto("campaigns")
      .values(row)
      .onConflict((oc) => oc.column("id").doUpdateSet(rest))
      .execute();
  }
}

/** Campaigns of one Merkl opportunity (matched on the opportunity id or its identifier), any status. */
export async function getCampaignsFor(db: Kysely<Database>, chainId: number, merklId: string): Promise<Campaign[]> {
  const key = merklId.toLowerCase();
  const rows = await db.selectFrom("campaigns").selectAll().where("chain_id", "=", chainId).execute();
  return rows.filter((row) => row.opportunity_id.toLowerCase() === key || row.identifier.toLowerCase() === key);
}
