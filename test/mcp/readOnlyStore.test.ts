import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { StoreOpenError } from "../../src/errors/storage";
import { findAttestedRegistry } from "../../src/read/findAttestedRegistry";
import { listPools } from "../../src/storage/pools";
import { openStore, type Store } from "../../src/storage/openStore";
import { freshPostgresUrl } from "../../testkit/postgres";
import { DAY, NOW, TEST_REGISTRY, insertAttestation, insertPool, openTempStore, seed } from "../helpers/service/app";

/** What `attest mcp` needs of the lower layers: a store it cannot write, and the registry the attestations name. */
describe("the store as `attest mcp` opens it", function () {
  describe("openStore({ readOnly: true }) on SQLite", function () {
    let dir: string;
    let file: string;
    before(async function () {
      dir = mkdtempSync(join(tmpdir(), "mcp-readonly-"));
      file = join(dir, "service.sqlite");
      const writer = await openStore({ file });
      await seed(writer);
      await writer.close();
    });
    after(function () {
      rmSync(dir, { recursive: true, force: true });
    });

    it("reads the store and refuses every write, leaving the file as it was", async function () {
      const before = createHash("sha256").update(readFileSync(file)).digest("hex");
      const store = await openStore({ file, readOnly: true });
      try {
        expect(await listPools(store.db)).to.have.length(6);
        let refused: unknown;
        try {
          await store.db.deleteFrom("pools").execute();
        } catch (error) {
          refused = error;
        }
        expect((refused as { code?: string }).code).to.match(/^SQLITE_READONLY/);
        expect(await listPools(store.db)).to.have.length(6);
      } finally {
        await store.close();
      }
      expect(createHash("sha256").update(readFileSync(file)).digest("hex")).to.equal(before);
    });

    it("never creates a store: a missing file is an error that says to start the service", async function () {
      const missing = join(dir, "elsewhere", "service.sqlite");
      let error: unknown;
      try {
        await openStore({ file: missing, readOnly: true });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(StoreOpenError);
      expect((error as StoreOpenError).shortMessage).to.equal(
        `Cannot open the SQLite database at ${missing} for reading.`,
      );
      expect((error as StoreOpenError).metaMessages?.[0]).to.include("start the service once");
      expect(existsSync(join(dir, "elsewhere"))).to.equal(false);
    });

    it("never migrates: a schema behind this version is an error naming the pending migrations", async function () {
      const behind = join(dir, "behind.sqlite");
      const writer = await openStore({ file: behind });
      const last = await writer.db
        .selectFrom("kysely_migration" as never)
        .select("name" as never)
        .orderBy("name" as never, "desc")
        .executeTakeFirstOrThrow();
      await writer.db
        .deleteFrom("kysely_migration" as never)
        .where("name" as never, "=", (last as { name: string }).name as never)
        .execute();
      await writer.close();
      let error: unknown;
      try {
        await openStore({ file: behind, readOnly: true });
      } catch (caught) {
        error = caught;
      }
      expect((error as StoreOpenError).shortMessage).to.equal(
        `The store's schema is behind this build (1 migration pending: ${(last as { name: string }).name}): ` +
          "run npx attest migrate (or start the service once); a read-only reader never changes the schema.",
      );
    });
  });

  describe("openStore({ readOnly: true }) on PostgreSQL (throwaway local cluster)", function () {
    let url: string;
    before(async function () {
      this.timeout(60_000);
      url = await freshPostgresUrl();
      const writer = await openStore({ databaseUrl: url });
      await seed(writer);
      await writer.close();
    });

    it("reads, and every write is refused by the server (read-only transactions)", async function () {
      const store = await openStore({ databaseUrl: url, readOnly: true });
      try {
        expect(await listPools(store.db)).to.have.length(6);
        let refused: unknown;
        try {
          await store.db.deleteFrom("pools").execute();
        } catch (error) {
          refused = error;
        }
        // 25006: read_only_sql_transaction.
        expect((refused as { code?: string }).code).to.equal("25006");
        expect(await listPools(store.db)).to.have.length(6);
      } finally {
        await store.close();
      }
    });
  });

  describe("findAttestedRegistry", function () {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async function () {
      ({ store, cleanup } = await openTempStore());
      await insertPool(store, { chain_id: 1, address: "0x" + "a".repeat(40), kind: "amm", symbol: "A", protocol: "x" });
      await insertPool(store, {
        chain_id: 8453,
        address: "0x" + "b".repeat(40),
        kind: "amm",
        symbol: "B",
        protocol: "x",
      });
    });
    afterEach(async function () {
      await cleanup();
    });
    const attest = (
      chainId: number,
      address: string,
      issuedAt: number,
      registry?: { chainId: number; address: string },
    ) =>
      insertAttestation(store, {
        chainId,
        address,
        issuedAt,
        expiry: issuedAt + DAY,
        horizonDays: 7,
        confidenceHundredths: 90,
        ...(registry === undefined ? {} : { registry }),
      });

    it("is null when nothing is attested", async function () {
      expect(await findAttestedRegistry(store)).to.equal(null);
    });

    it("names the registry of the newest attestation's v2 block (checksummed)", async function () {
      await attest(1, "0x" + "a".repeat(40), NOW - 2 * DAY);
      await attest(8453, "0x" + "b".repeat(40), NOW, { chainId: 1, address: TEST_REGISTRY.address.toLowerCase() });
      expect(await findAttestedRegistry(store)).to.deep.equal(TEST_REGISTRY);
    });

    it("is null when the newest attestation has no v2 block (no registry configured when it was issued)", async function () {
      await attest(8453, "0x" + "b".repeat(40), NOW - 2 * DAY, TEST_REGISTRY);
      await attest(1, "0x" + "a".repeat(40), NOW);
      expect(await findAttestedRegistry(store)).to.equal(null);
    });
  });
});
