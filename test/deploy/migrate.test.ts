import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { sql } from "kysely";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { loadConfig } from "../../src/config/loadConfig";
import { StoreOpenError } from "../../src/errors/storage";
import { runService } from "../../src/main/runService";
import { BUILD_SCHEMA_VERSION, KNOWN_MIGRATIONS, readSchemaState } from "../../src/storage/migrateStore";
import { openStore, type Store } from "../../src/storage/openStore";
import { rejection } from "../helpers/rejection";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";

/** Runs `attest <argv>` in-process with `env`; returns the exit status and the lines written. */
async function attest(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), readStdin: async () => "", env };
  return { code: await main(argv, io), out, err };
}

/** The migrations a store records as applied. */
async function applied(store: Store): Promise<string[]> {
  return (await readSchemaState(store)).applied;
}

type Backend = {
  /** A fresh, empty store's environment (DATA_DIR always; DATABASE_URL for PostgreSQL). */
  freshEnv(): Promise<NodeJS.ProcessEnv>;
  label: "sqlite" | "postgres";
};

function migrationSuite(backend: Backend) {
  const open = (env: NodeJS.ProcessEnv, migrate: boolean) => openStore({ ...loadConfig({ env }).database, migrate });

  it("attest migrate applies every pending migration, one line each, then says the schema is up to date", async function () {
    const env = await backend.freshEnv();
    const first = await attest(["migrate"], env);
    expect(first).to.deep.equal({ code: 0, out: KNOWN_MIGRATIONS.map((name) => `applied ${name}`), err: [] });
    const again = await attest(["migrate"], env);
    expect(again).to.deep.equal({
      code: 0,
      out: [`schema up to date (${KNOWN_MIGRATIONS.length} migrations)`],
      err: [],
    });
    const store = await open(env, false);
    expect(await applied(store)).to.deep.equal([...KNOWN_MIGRATIONS]);
    expect(store.migrated).to.deep.equal([]);
    await store.close();
  });

  it("with migrate: false a store behind this build is refused with one line naming npx attest migrate", async function () {
    const env = await backend.freshEnv();
    const error = (await rejection(open(env, false))) as StoreOpenError;
    expect(error).to.be.instanceOf(StoreOpenError);
    expect(error.shortMessage).to.equal(
      `The store's schema is behind this build (${KNOWN_MIGRATIONS.length} migrations pending: ${KNOWN_MIGRATIONS.join(", ")}): ` +
        "run npx attest migrate (the deploy step), or start with MIGRATE_ON_START=true.",
    );
    // Nothing was migrated by the refusal; the default start (migrate: true) migrates and says what it applied.
    const store = await open(env, true);
    expect(store.migrated).to.deep.equal([...KNOWN_MIGRATIONS]);
    await store.close();
  });

  it("a store migrated by a newer build: start, check and attest migrate refuse, naming both versions", async function () {
    const env = await backend.freshEnv();
    const store = await open(env, true);
    await sql`insert into kysely_migration (name, timestamp) values ('999_future', '2030-01-01T00:00:00.000Z')`.execute(
      store.db,
    );
    await store.close();
    const expected =
      `The store's schema (999_future) is newer than this build's (${BUILD_SCHEMA_VERSION}): ` +
      "deploy a build that knows 999_future; an older build neither starts nor migrates.";
    for (const migrate of [true, false]) {
      const error = (await rejection(open(env, migrate))) as StoreOpenError;
      expect(error).to.be.instanceOf(StoreOpenError);
      expect(error.shortMessage).to.equal(expected);
    }
    const cli = await attest(["migrate"], env);
    expect(cli).to.deep.equal({ code: 1, out: [], err: [`attest migrate: ${expected}`] });
  });

  it("a migration that fails keeps its cause in the one line, and the schema stays at its last complete migration", async function () {
    const env = await backend.freshEnv();
    // A table 001_initial creates is already there (a store half-made by hand): 001 fails, nothing is recorded.
    const bare = await openStoreWithoutSchema(env);
    await sql`create table pools (x integer)`.execute(bare.db);
    await bare.close();
    const error = (await rejection(open(env, true))) as StoreOpenError;
    expect(error).to.be.instanceOf(StoreOpenError);
    expect(error.shortMessage).to.match(
      new RegExp(`^Database migration failed \\(${backend.label}, ${KNOWN_MIGRATIONS[0]}\\): .*pools.* already exists`),
    );
    const check = await openStoreWithoutSchema(env);
    const { rows } = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(check.db);
    expect(Number(rows[0].n)).to.equal(0);
    await check.close();
    const cli = await attest(["migrate"], env);
    expect(cli.code).to.equal(1);
    expect(cli.err).to.have.length(1);
    expect(cli.err[0]).to.match(
      /^attest migrate: Database migration failed .*already exists.* Check the database is reachable/,
    );
  });

  it("MIGRATE_ON_START=false: the start refuses a store with pending migrations, naming npx attest migrate", async function () {
    const env = await backend.freshEnv();
    const lines: string[] = [];
    const config = loadConfig({ env: { ...env, MIGRATE_ON_START: "false" } });
    expect(config.migrateOnStart).to.equal(false);
    const error = (await rejection(runService({ config, log: (line) => lines.push(line) }))) as StoreOpenError;
    expect(error).to.be.instanceOf(StoreOpenError);
    expect(error.shortMessage).to.match(
      /^The store's schema is behind this build \(\d+ migrations pending: .*\): run npx attest migrate/,
    );
    expect(lines.some((line) => line.startsWith("store:"))).to.equal(false);
  });

  /** The store's database with no schema work at all (to prepare a broken store). */
  async function openStoreWithoutSchema(env: NodeJS.ProcessEnv): Promise<Store> {
    const { database } = loadConfig({ env });
    if ("file" in database) {
      const { default: BetterSqlite3 } = await import("better-sqlite3");
      const { Kysely, SqliteDialect } = await import("kysely");
      const db = new Kysely<never>({ dialect: new SqliteDialect({ database: new BetterSqlite3(database.file) }) });
      return { db, dialect: "sqlite", close: () => db.destroy() } as unknown as Store;
    }
    const pg = (await import("pg")).default;
    const { Kysely, PostgresDialect } = await import("kysely");
    const db = new Kysely<never>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.databaseUrl }) }),
    });
    return { db, dialect: "postgres", close: () => db.destroy() } as unknown as Store;
  }
}

describe("migrations as a deploy step (attest migrate, MIGRATE_ON_START)", function () {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "migrate-"));
    dirs.push(dir);
    return dir;
  };
  after(function () {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe("SQLite (DATA_DIR)", function () {
    migrationSuite({ label: "sqlite", freshEnv: async () => ({ DATA_DIR: dataDir() }) });
  });

  describe("PostgreSQL (DATABASE_URL, throwaway local cluster)", function () {
    before(async function () {
      this.timeout(60_000);
      await sharedPostgres();
    });
    migrationSuite({
      label: "postgres",
      freshEnv: async () => ({ DATA_DIR: dataDir(), DATABASE_URL: await freshPostgresUrl() }),
    });
  });
});
