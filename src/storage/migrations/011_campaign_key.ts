import { sql, type Kysely, type Migration } from "kysely";

/**
 * A campaign is keyed by (distribution chain, campaign id), Merkl making a campaign id unique only per
 * distribution chain (the chain whose distributor pays it); its start and end are announced once per (distribution
 * chain, campaign id, kind). Neither engine changes a primary key in place portably, so both tables are rebuilt:
 * create the new one, copy, drop the old one, rename. Rows written before this migration are paid on their
 * opportunity's chain (`distribution_chain_id = chain_id`); an announcement takes its campaign's chain (campaigns are
 * never deleted, and each announcement was written beside its campaign's row).
 */
export const campaignKey: Migration = {
  async up(db: Kysely<unknown>) {
    await createCampaigns(db, ["distribution_chain_id", "id"]);
    await sql`insert into campaigns_new (id, distribution_chain_id, chain_id, opportunity_id, identifier, name, type,
        status, reward_token, amount, apr_percent, start_ts, end_ts, observed_at)
      select id, chain_id, chain_id, opportunity_id, identifier, name, type, status, reward_token, amount,
        apr_percent, start_ts, end_ts, observed_at from campaigns`.execute(db);
    await createAnnouncements(db, ["distribution_chain_id", "campaign_id", "kind"]);
    await sql`insert into campaign_announcements_new (distribution_chain_id, campaign_id, kind, at)
      select c.chain_id, a.campaign_id, a.kind, a.at
      from campaign_announcements a join campaigns c on c.id = a.campaign_id`.execute(db);
    await swap(db, "campaigns");
    await swap(db, "campaign_announcements");
  },
  async down(db: Kysely<unknown>) {
    // Back to one row per campaign id: of the same id on several distribution chains, the lowest chain's is kept.
    await createCampaigns(db, ["id"], false);
    await sql`insert into campaigns_new (id, chain_id, opportunity_id, identifier, name, type, status, reward_token,
        amount, apr_percent, start_ts, end_ts, observed_at)
      select id, chain_id, opportunity_id, identifier, name, type, status, reward_token, amount, apr_percent,
        start_ts, end_ts, observed_at from campaigns c
      where distribution_chain_id = (select min(distribution_chain_id) from campaigns d where d.id = c.id)`.execute(db);
    await createAnnouncements(db, ["campaign_id", "kind"], false);
    await sql`insert into campaign_announcements_new (campaign_id, kind, at)
      select campaign_id, kind, min(at) from campaign_announcements group by campaign_id, kind`.execute(db);
    await swap(db, "campaigns");
    await swap(db, "campaign_announcements");
  },
};

/**
 * The new `campaigns` table as `campaigns_new`, keyed by `key`, with `distribution_chain_id` unless `keyed` is false.
 * Each key has its own constraint name: PostgreSQL keeps it through the rename, and names are unique per schema.
 */
async function createCampaigns(db: Kysely<unknown>, key: string[], keyed = true): Promise<void> {
  const name = "campaigns_new";
  let table = db.schema.createTable(name).addColumn("id", "text", (c) => c.notNull());
  if (keyed) table = table.addColumn("distribution_chain_id", "integer", (c) => c.notNull());
  await table
    .addColumn("chain_id", "integer", (c) => c.notNull())
    .addColumn("opportunity_id", "text", (c) => c.notNull())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("type", "text")
    .addColumn("status", "text")
    .addColumn("reward_token", "text")
    .addColumn("amount", "text")
    .addColumn("apr_percent", "double precision")
    .addColumn("start_ts", "bigint")
    .addColumn("end_ts", "bigint")
    .addColumn("observed_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint(`${name.replace(/_new$/, "")}_${keyed ? "by_chain_" : ""}pk`, key as never)
    .execute();
}

/** The new `campaign_announcements` table as `campaign_announcements_new`, as {@link createCampaigns}. */
async function createAnnouncements(db: Kysely<unknown>, key: string[], keyed = true): Promise<void> {
  const name = "campaign_announcements_new";
  let table = db.schema.createTable(name);
  if (keyed) table = table.addColumn("distribution_chain_id", "integer", (c) => c.notNull());
  await table
    .addColumn("campaign_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint(`${name.replace(/_new$/, "")}_${keyed ? "by_chain_" : ""}pk`, key as never)
    .execute();
}

/** Drops `table` and renames `{table}_new` to it. */
async function swap(db: Kysely<unknown>, table: string): Promise<void> {
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(`${table}_new`).renameTo(table).execute();
}
