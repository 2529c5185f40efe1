import type { Kysely } from "kysely";
import type { Database, DexVolume } from "./schema";

/** Inserts or refreshes daily volumes keyed by (chain, protocol, day): a later observation of a day replaces it. */
export async function upsertDexVolumes(db: Kysely<Database>, rows: DexVolume[]): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto("dex_volumes")
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(["chain", "protocol", "day"])
          .doUpdateSet({ volume_usd: row.volume_usd, observed_at: row.observed_at }),
      )
      .execute();
  }
}
