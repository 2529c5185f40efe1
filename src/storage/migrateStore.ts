import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { describeStoreFailure, StoreOpenError } from "../errors/storage";
import { errorLine } from "@attestation-registry/sdk/errors";
import { migrations } from "./migrations";
import type { Database } from "./schema";

/**
 * The schema's version and how it moves: the versioned migrations of `./migrations`, applied by Kysely's Migrator
 * (which records each in `kysely_migration` and serializes concurrent migrators on a lock row), and the checks that
 * keep a build from running against a schema it does not know (docs/operations.md#migrations).
 */

/** A store as far as its schema goes (a `Store` of `./openStore` is one). */
export type SchemaStore = { db: Kysely<Database>; dialect: "sqlite" | "postgres" };

/** Every migration this build knows, in the order they apply. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations).sort();

/** This build's schema version: its latest migration. */
export const BUILD_SCHEMA_VERSION: string = KNOWN_MIGRATIONS[KNOWN_MIGRATIONS.length - 1];

/** Kysely's record of applied migrations (its default table name). */
const MIGRATION_TABLE = "kysely_migration";

const provider: MigrationProvider = {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  },
};

/** Where a store's schema stands against this build. */
export type SchemaState = {
  /** Migrations the store records as applied, in name order. */
  applied: string[];
  /** Migrations this build knows and the store has not applied. */
  pending: string[];
  /** Migrations the store has applied that this build does not know: the store is newer than the build. */
  unknown: string[];
  /** The store's latest applied migration, or null for an empty store. */
  storeVersion: string | null;
  /** {@link BUILD_SCHEMA_VERSION}. */
  buildVersion: string;
};

/**
 * Reads which migrations a store has applied and compares them with this build's. Changes nothing (works on a
 * read-only store); an empty database has applied none.
 *
 * @param store the query layer and its dialect.
 * @returns the {@link SchemaState}.
 * @throws {@link StoreOpenError} when the database does not answer.
 */
export async function readSchemaState(store: SchemaStore): Promise<SchemaState> {
  let applied: string[];
  try {
    applied = (await hasMigrationTable(store)) ? await appliedMigrations(store.db) : [];
  } catch (error) {
    throw new StoreOpenError({
      shortMessage: `Cannot open the store (${store.dialect}): ${describeStoreFailure(error)}`,
      fix: "Check that the database is reachable (DATABASE_URL) or that DATA_DIR holds the store.",
      cause: error,
    });
  }
  const done = new Set(applied);
  const known = new Set(KNOWN_MIGRATIONS);
  return {
    applied,
    pending: KNOWN_MIGRATIONS.filter((name) => !done.has(name)),
    unknown: applied.filter((name) => !known.has(name)),
    storeVersion: applied.length > 0 ? applied[applied.length - 1] : null,
    buildVersion: BUILD_SCHEMA_VERSION,
  };
}

/** What {@link migrateStore} did. */
export type MigrateStoreReturnType = {
  /** The migrations applied now, in order (empty when the schema was already current). */
  applied: string[];
  /** The schema before migrating. */
  before: SchemaState;
};

/**
 * Brings a store's schema up to this build's version. Refuses a store whose schema is newer than this build (it has
 * applied migrations this build does not know), naming both versions, before changing anything. Concurrent
 * migrators (several processes starting at once) are serialized by Kysely's lock; the later ones find nothing to do.
 *
 * @param store the query layer and its dialect (a writable store).
 * @returns the migrations applied now.
 * @throws {@link StoreOpenError} for a newer schema, an unreachable database or a migration that failed (its cause's
 *   message in the one line; the schema stays at its last complete migration).
 */
export async function migrateStore(store: SchemaStore): Promise<MigrateStoreReturnType> {
  const before = await readSchemaState(store);
  assertNotNewer(before);
  if (before.pending.length === 0) return { applied: [], before };
  const { error, results = [] } = await new Migrator({ db: store.db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === "Error")?.migrationName;
    throw new StoreOpenError({
      shortMessage: `Database migration failed (${store.dialect}${failed ? `, ${failed}` : ""}): ${errorLine(error)}`,
      fix: "Check the database is reachable and writable; the schema is left at its last complete migration.",
      cause: error,
    });
  }
  return {
    applied: results.filter((result) => result.status === "Success").map((result) => result.migrationName),
    before,
  };
}

/**
 * Checks, without migrating, that a store's schema is exactly this build's: neither newer (named with both versions)
 * nor behind (`fix` says how to migrate it).
 *
 * @param store the query layer and its dialect.
 * @param options `fix`: the sentence that ends the "behind" message (what to run).
 * @throws {@link StoreOpenError} when the schema is not current or the database does not answer.
 */
export async function assertSchemaCurrent(store: SchemaStore, options: { fix: string }): Promise<SchemaState> {
  const state = await readSchemaState(store);
  assertNotNewer(state);
  if (state.pending.length > 0) {
    const count = `${state.pending.length} migration${state.pending.length === 1 ? "" : "s"} pending`;
    throw new StoreOpenError({
      shortMessage: `The store's schema is behind this build (${count}: ${state.pending.join(", ")}): ${options.fix}`,
      fix: options.fix,
    });
  }
  return state;
}

/** A store that has applied migrations this build does not know was migrated by a newer build: refuse it. */
function assertNotNewer(state: SchemaState): void {
  if (state.unknown.length === 0) return;
  const fix = `deploy a build that knows ${state.unknown[state.unknown.length - 1]}; an older build neither starts nor migrates.`;
  throw new StoreOpenError({
    shortMessage: `The store's schema (${state.storeVersion}) is newer than this build's (${state.buildVersion}): ${fix}`,
    fix,
  });
}

async function hasMigrationTable({ db, dialect }: SchemaStore): Promise<boolean> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ name: string | null }>`select to_regclass(${MIGRATION_TABLE})::text as name`.execute(
      db,
    );
    return rows[0]?.name !== null && rows[0]?.name !== undefined;
  }
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(db);
  return rows.length > 0;
}

async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return rows.map((row) => row.name).sort();
}
