import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Serializes the transactions that take the same `name` until they end: on PostgreSQL a transaction-scoped advisory
 * lock (`pg_advisory_xact_lock` on a hash of the name), so a count-then-insert under a cap cannot be raced by another
 * connection; on SQLite nothing is needed (one writer at a time, and a transaction that read before another wrote
 * cannot write). Call it first thing in the transaction (`db` must be the transaction).
 */
export async function lockForTransaction(db: Kysely<Database>, name: string): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
}
