import type { Kysely } from "kysely";
import type { Database } from "./schema";

/** How many claims have been graded. Zero: nothing grades a claim yet, and no code path writes this table. */
export async function countAccuracyRecords(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("accuracy_records")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
