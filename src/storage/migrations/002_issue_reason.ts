import type { Kysely, Migration } from "kysely";

/** Why a pool has no attestation (yet): the issuer's last verdict, for `404 NO_ATTESTATION` with its reason. */
export const issueReason: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("pools").addColumn("issue_reason", "text").execute();
    await db.schema.alterTable("pools").addColumn("issue_checked_at", "bigint").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("pools").dropColumn("issue_checked_at").execute();
    await db.schema.alterTable("pools").dropColumn("issue_reason").execute();
  },
};
