import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { StoreOpenError } from "../errors/storage";
import { makeSqliteFilesPrivate, PRIVATE_DIR_MODE } from "./fileModes";
import { assertSchemaCurrent, migrateStore } from "./migrateStore";
import type { Database } from "./schema";

/** Parameters of {@link openStore}. Give `databaseUrl` for PostgreSQL, otherwise `file` for SQLite. */
export interface OpenStoreParameters {
  /** `postgres://…` or `postgresql://…`: use PostgreSQL through `pg`. Takes precedence over `file`. */
  databaseUrl?: string;
  /** SQLite database path (its folder is created), or `:memory:`. */
  file?: string;
  /** How long a SQLite writer waits for a lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Open an existing store for reading only (`attest mcp`): the SQLite file must exist and is opened read-only
   * (`query_only` too); PostgreSQL sessions are read-only transactions. No migration runs: a schema behind this
   * version is an error that names `npx attest migrate`. Default false.
   */
  readOnly?: boolean;
  /**
   * Apply pending migrations (`MIGRATE_ON_START`, default true). When false, a schema behind this build is an error
   * that names `npx attest migrate`. Either way a schema newer than this build is an error naming both versions
   * (`./migrateStore`).
   */
  migrate?: boolean;
}

/** An open store: the one query layer (Kysely) over SQLite or PostgreSQL. */
export interface Store {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  close(): Promise<void>;
  /** The migrations this open applied, in order (empty when the schema was current or was only checked). */
  migrated?: readonly string[];
}
export type OpenStoreReturnType = Store;
export type OpenStoreErrorType = StoreOpenError;

/** PostgreSQL type oids whose text form we parse into JS numbers (int8 columns hold Unix seconds). */
const PG_INT8_OID = 20;

/**
 * Opens the store and brings its schema up to date with the versioned migrations (`./migrateStore`), or with
 * `migrate: false` only checks it is current.
 *
 * SQLite (default): WAL journal, `synchronous = NORMAL` (a killed process never loses a committed
 * transaction), foreign keys on, a busy timeout. PostgreSQL: a `pg` pool; `bigint` columns come
 * back as JS numbers, as they do from SQLite, so callers see one shape whatever the dialect.
 *
 * @param {@link OpenStoreParameters}
 * @returns the open {@link Store}; call `close()` when done.
 * @example
 * import { openStore } from "./storage/openStore";
 * const store = await openStore({ file: "./data/service.sqlite" });
 * const pools = await store.db.selectFrom("pools").selectAll().execute();
 * await store.close();
 */
export async function openStore(parameters: OpenStoreParameters): Promise<Store> {
  const { databaseUrl, file, busyTimeoutMs = 5000, readOnly = false, migrate = true } = parameters;
  let store: Store;
  if (databaseUrl !== undefined && databaseUrl !== "") {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new StoreOpenError({
        shortMessage: "DATABASE_URL must start with postgres:// or postgresql://.",
        fix: "Unset DATABASE_URL to use the SQLite file in DATA_DIR, or give a PostgreSQL connection URL.",
      });
    }
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 5,
      // Every transaction of a read-only store is READ ONLY: the server refuses any write.
      ...(readOnly ? { options: "-c default_transaction_read_only=on" } : {}),
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") => {
          if (oid === PG_INT8_OID) return (value: string) => Number(value);
          return pg.types.getTypeParser(oid, format as "text");
        }) as typeof pg.types.getTypeParser,
      },
    });
    // pg's pool.end() resolves before its clients' sockets are closed; wait for every client to be removed, so that
    // a server going away right after close() cannot surface as an unhandled error on a half-closed client.
    let open = 0;
    pool.on("connect", () => open++);
    pool.on("remove", () => open--);
    pool.on("error", () => undefined); // an idle client's connection dropped: the pool replaces it on next use
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    store = {
      db,
      dialect: "postgres",
      async close() {
        await db.destroy();
        for (let waited = 0; open > 0 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
      },
    };
  } else {
    if (file === undefined || file === "") {
      throw new StoreOpenError({
        shortMessage: "openStore needs a SQLite file path or a PostgreSQL databaseUrl.",
        fix: "Pass { file: <DATA_DIR>/service.sqlite } or { databaseUrl: 'postgres://…' }.",
      });
    }
    let sqlite: BetterSqlite3.Database;
    try {
      if (readOnly) {
        // The writer (the service) set WAL mode; a reader only needs to wait for its locks.
        sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
        sqlite.pragma("query_only = ON");
      } else {
        const onDisk = file !== ":memory:";
        // A folder it creates is 0700; an existing one is the caller's (the service tightens DATA_DIR itself).
        if (onDisk && !existsSync(dirname(file))) mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        // The store holds webhook secrets: its files are 0600 (DESIGN §13), -wal and -shm included.
        if (onDisk) makeSqliteFilesPrivate(file, "before-open");
        sqlite = new BetterSqlite3(file);
        sqlite.pragma("journal_mode = WAL");
        if (onDisk) makeSqliteFilesPrivate(file, "after-open");
        sqlite.pragma("synchronous = NORMAL");
        sqlite.pragma("foreign_keys = ON");
      }
      sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    } catch (error) {
      throw new StoreOpenError({
        shortMessage: `Cannot open the SQLite database at ${file}${readOnly ? " for reading" : ""}.`,
        fix: readOnly
          ? "Check DATA_DIR (or DATABASE_URL): start the service once (npm start) to create the store there."
          : "Check that DATA_DIR exists or can be created and is writable.",
        cause: error,
      });
    }
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    store = { db, dialect: "sqlite", close: () => db.destroy() };
  }

  try {
    if (readOnly || !migrate) {
      const fix = readOnly
        ? "run npx attest migrate (or start the service once); a read-only reader never changes the schema."
        : "run npx attest migrate (the deploy step), or start with MIGRATE_ON_START=true.";
      await assertSchemaCurrent(store, { fix });
      return { ...store, migrated: [] };
    }
    return { ...store, migrated: (await migrateStore(store)).applied };
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}
