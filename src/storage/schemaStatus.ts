import { Migrator, type Migration, type MigrationProvider } from "kysely";
import { migrations } from "./migrations";
import type { Store } from "./openStore";

/** Where a store's schema stands against this version's migrations (`src/storage/migrations/`). */
export interface SchemaStatus {
  /** True when every migration this version knows has been applied. */
  current: boolean;
  /** The migrations this version knows and the store has not applied, in order (empty when current). */
  pending: string[];
  /** How many migrations this version knows. */
  known: number;
}

const provider: MigrationProvider = {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  },
};

/**
 * Reads the store's applied migrations (Kysely's Migrator, as the start's own check does) and says whether any this
 * version knows is pending. Changes nothing; a store that cannot be read makes it throw (the caller decides what an
 * unreachable store means: `/readyz` answers 503 "store unavailable").
 *
 * @param store - the open store (only its `db` is used).
 * @returns the {@link SchemaStatus}.
 * @example
 * const { current, pending } = await schemaStatus(store);
 * if (!current) console.log(`${pending.length} migration(s) pending: ${pending.join(", ")}`);
 */
export async function schemaStatus(store: Pick<Store, "db">): Promise<SchemaStatus> {
  const known = await new Migrator({ db: store.db, provider }).getMigrations();
  const pending = known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
  return { current: pending.length === 0, pending, known: known.length };
}
