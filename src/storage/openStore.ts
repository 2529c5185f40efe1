import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from "kysely";
import pg from "pg";
import { asStoreError, isStoreUnreachable, StoreOpenError } from "../errors/storage";
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
   * PostgreSQL: how long taking a connection may wait (the pool is full, or the server does not answer) before the
   * query fails with `StoreUnavailableError`, in ms. Default 5000.
   */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: how long an idle connection is kept, in ms. Default 10000 (pg's). A process whose work comes in
   * passes sets it above the pass interval, so each pass reuses the connections of the one before instead of opening
   * new ones.
   */
  idleTimeoutMs?: number;
  /**
   * PostgreSQL: told when one of the pool's connections breaks (the server restarted or went away), idle or in use.
   * The error is handled whatever this does: the broken connection is dropped and the next query connects again.
   */
  onConnectionError?: (error: Error) => void;
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
 * A database that goes away never ends the process: a query or connect that cannot reach it throws
 * `StoreUnavailableError` (SQLite: still busy after the busy timeout), a broken PostgreSQL connection is dropped
 * (never an unhandled `error` event) and the next query connects again (docs/operations.md).
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
  // Every error of the driver reaches the store's callers through asStoreError: a database that cannot be reached is
  // a StoreUnavailableError (HTTP 503), whatever the dialect.
  let store: Store;
  if (databaseUrl !== undefined && databaseUrl !== "") {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new StoreOpenError({
        shortMessage: "DATABASE_URL must start with postgres:// or postgresql://.",
        fix: "Unset DATABASE_URL to use the SQLite file in DATA_DIR, or give a PostgreSQL connection URL.",
      });
    }
    store = openPostgres({ ...parameters, databaseUrl, readOnly });
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
        // The store holds webhook secrets: its files are 0600 (docs/security.md#files), -wal and -shm included.
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
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: guardSqlite(sqlite) }) });
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

/** The PostgreSQL store: a `pg` pool behind {@link guardPool}, `int8` parsed to numbers. */
function openPostgres(parameters: OpenStoreParameters & { databaseUrl: string; readOnly: boolean }): Store {
  const { databaseUrl, readOnly, connectTimeoutMs = 5000, idleTimeoutMs = 10_000, onConnectionError } = parameters;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 5,
    idleTimeoutMillis: idleTimeoutMs,
    // While the server is down or unreachable a query fails after this, instead of waiting for a connection forever.
    connectionTimeoutMillis: connectTimeoutMs,
    // A peer that vanished without closing the socket (a network partition) is noticed by TCP keep-alive.
    keepAlive: true,
    // Every transaction of a read-only store is READ ONLY: the server refuses any write.
    ...(readOnly ? { options: "-c default_transaction_read_only=on" } : {}),
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === PG_INT8_OID) return (value: string) => Number(value);
        return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
      }) as typeof pg.types.getTypeParser,
    },
  });
  // pg's pool.end() resolves before its clients' sockets are closed; wait for every client to be removed, so that
  // a server going away right after close() cannot surface as an unhandled error on a half-closed client.
  let open = 0;
  // Each broken connection is told once, whether its query failed or it broke between queries.
  const told = new WeakSet<pg.ClientBase>();
  const broke = (client: pg.ClientBase, error: Error) => {
    if (told.has(client)) return;
    told.add(client);
    onConnectionError?.(error);
  };
  pool.on("connect", (client) => {
    open++;
    // pg-pool listens for a client's `error` only while it is idle: a client checked out (inside a transaction, or
    // between a query and its release) whose server ends its session (57P01 on a restart) would emit an unhandled
    // `error` and end the process. This listener stays for the client's whole life; the client is then not
    // queryable, its query fails with StoreUnavailableError and the pool drops it on release.
    client.on("error", (error: Error) => broke(client, error));
  });
  pool.on("remove", () => open--);
  // The pool re-emits an idle client's error (already told by the client's own listener above): handled here.
  pool.on("error", () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guardPool(pool, broke) }) });
  return {
    db,
    dialect: "postgres",
    async close() {
      await db.destroy();
      for (let waited = 0; open > 0 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    },
  };
}

/**
 * The pool as Kysely uses it: a connect or a query that cannot reach the server throws `StoreUnavailableError`
 * ({@link asStoreError}), and a client whose query failed so is told to `broke` and released as broken (closed, not
 * reused).
 */
function guardPool(pool: pg.Pool, broke: (client: pg.ClientBase, error: Error) => void): PostgresPool {
  // Kysely keys its connections by client: the same pg client must come back as the same guarded one.
  const guarded = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asStoreError(error);
      }
      let wrapper = guarded.get(client);
      if (wrapper === undefined) {
        let broken = false;
        wrapper = {
          query: (async (sql: string, parameters: readonly unknown[]) => {
            try {
              return await client.query(sql, [...parameters]);
            } catch (error) {
              if (isStoreUnreachable(error)) {
                broken = true;
                broke(client, error as Error);
              }
              throw asStoreError(error);
            }
          }) as unknown as PostgresPoolClient["query"],
          release: () => client.release(broken),
        };
        guarded.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** The SQLite handle as Kysely uses it: a statement still `SQLITE_BUSY` after the busy timeout throws `StoreUnavailableError`. */
function guardSqlite(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const guard = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      throw asStoreError(error);
    }
  };
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      const statement = guard(() => sqlite.prepare(sql));
      return {
        reader: statement.reader,
        all: (parameters) => guard(() => statement.all(parameters)),
        run: (parameters) => guard(() => statement.run(parameters)),
        iterate: (parameters) => guard(() => statement.iterate(parameters)),
      };
    },
  };
}
