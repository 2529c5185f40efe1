import { expect } from "chai";
import { InvalidPoolIdError } from "../../src/errors/pool";
import { AmbiguousPoolError, NoAttestationError, PoolNotFoundError } from "../../src/errors/poolLookup";
import { StoreUnavailableError } from "../../src/errors/storage";
import type { ReadContext } from "../../src/read/context";
import { getHealth } from "../../src/read/getHealth";
import { getPoolAttestation } from "../../src/read/getPoolAttestation";
import { listPools } from "../../src/read/listPools";
import { resolvePool } from "../../src/read/resolvePool";
import { setIssueVerdict } from "../../src/storage/pools";
import { finishIngestRun, startIngestRun } from "../../src/storage/ingestRuns";
import { NOW, POOLS, openTempStore, seed } from "../helpers/service/app";
import { rejection } from "../helpers/rejection";

/** The readers every surface shares, called directly: they throw domain errors, never HTTP ones. */
describe("read layer (src/read, real SQLite)", function () {
  let context: ReadContext;
  let cleanup: () => Promise<void>;

  before(async function () {
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    await seed(temp.store);
    context = { db: temp.store.db, freshnessWindowS: 3600, now: () => NOW };
  });
  after(async function () {
    await cleanup();
  });

  describe("resolvePool", function () {
    it("resolves every id shape of a pool to its qualified id", async function () {
      for (const id of [POOLS.weth, `1:${POOLS.weth}`, `eip155:1:${POOLS.weth.toUpperCase().replace("0X", "0x")}`]) {
        expect(await resolvePool(context, { id })).to.deep.equal({
          chainId: 1,
          address: POOLS.weth.toLowerCase(),
          id: `eip155:1:${POOLS.weth.toLowerCase()}`,
        });
      }
    });

    it("throws AmbiguousPoolError with the candidates for a bare address on two chains", async function () {
      const error = await rejection(resolvePool(context, { id: POOLS.shared }));
      expect(error).to.be.instanceOf(AmbiguousPoolError);
      expect((error as AmbiguousPoolError).candidates).to.deep.equal([
        `eip155:8453:${POOLS.shared}`,
        `eip155:42161:${POOLS.shared}`,
      ]);
    });

    it("throws PoolNotFoundError for a pool on another chain, and InvalidPoolIdError naming the field", async function () {
      expect(await rejection(resolvePool(context, { id: `10:${POOLS.weth}` }))).to.be.instanceOf(PoolNotFoundError);
      const invalid = await rejection(resolvePool(context, { id: "nope", field: "pools" }));
      expect(invalid).to.be.instanceOf(InvalidPoolIdError);
      expect((invalid as InvalidPoolIdError).field).to.equal("pools");
    });
  });

  describe("listPools", function () {
    it("sums fresh depths only and lists the stale ones beside the total", async function () {
      const result = await listPools(context);
      expect(result.pools).to.have.length(6);
      expect(result.total).to.deep.equal({ depthUsd: 1_300_000, pools: 4 });
      expect(result.heldOut.depthUsd).to.equal(777_000);
      expect(result.heldOut.pools).to.have.members([
        `eip155:8453:${POOLS.stale}`,
        `eip155:1:${POOLS.unseen.toLowerCase()}`,
      ]);
      expect(result.asOf).to.equal(NOW);
    });
  });

  describe("getPoolAttestation", function () {
    it("returns the latest attestation with its claim and evidence", async function () {
      const attestation = await getPoolAttestation(context, { id: `1:${POOLS.weth}` });
      expect(attestation).to.include({ chainId: 1, horizon: 30, confidence: 0.85, outcome: "pending" });
      expect(attestation.evidence.lowestDepthUsd).to.equal(900_000);
    });

    it("throws NoAttestationError with the horizon model's reason for a pool without one", async function () {
      const error = await rejection(getPoolAttestation(context, { id: `1:${POOLS.ausdc}` }));
      expect(error).to.be.instanceOf(NoAttestationError);
      expect((error as NoAttestationError).pool).to.equal(`eip155:1:${POOLS.ausdc.toLowerCase()}`);
      expect((error as NoAttestationError).reason)
        .to.be.a("string")
        .and.not.equal("");
    });
  });

  describe("getPoolAttestation, after an issuance check", function () {
    it("gives the issuer's own verdict as the reason (it knows campaign ends; the history alone does not)", async function () {
      const verdict = "the first known campaign ends in 5 days, below the shortest horizon (7 days)";
      await setIssueVerdict(context.db, { chainId: 1, address: POOLS.ausdc, reason: verdict, checkedAt: NOW });
      const error = await rejection(getPoolAttestation(context, { id: `1:${POOLS.ausdc}` }));
      expect((error as NoAttestationError).reason).to.equal(`${verdict}.`);
    });
  });

  describe("getHealth", function () {
    it("counts pools and attestations", async function () {
      expect(await getHealth(context)).to.deep.equal({
        status: "ok",
        pools: 6,
        attestations: 3,
        lastIngest: null,
        sources: {},
      });
    });

    it("shows each source's report of the latest finished pass, not of a pass still running", async function () {
      const temp = await openTempStore();
      try {
        const db = temp.store.db;
        const yields = { ok: true, rows: 14, rejectedRows: 2, conflicts: 1, reasons: ["data[3].tvlUsd: null"] };
        await startIngestRun(db, { id: "done", startedAt: NOW - 120 });
        await finishIngestRun(db, {
          id: "done",
          finishedAt: NOW - 100,
          status: "partial",
          sources: { "defillama-yields": yields, merkl: { ok: false, rows: 0, error: "empty answer" } },
        });
        await startIngestRun(db, { id: "running", startedAt: NOW - 10 });
        const health = await getHealth({ db });
        expect(health.lastIngest).to.deep.equal({ startedAt: NOW - 10, finishedAt: null, status: "running" });
        expect(health.sources).to.deep.equal({
          "defillama-yields": yields,
          merkl: { ok: false, rows: 0, error: "empty answer" },
        });
      } finally {
        await temp.cleanup();
      }
    });

    it("throws StoreUnavailableError when the store does not answer", async function () {
      const temp = await openTempStore();
      await temp.cleanup();
      expect(await rejection(getHealth({ db: temp.store.db }))).to.be.instanceOf(StoreUnavailableError);
    });
  });
});
