import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect } from "chai";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { startCluster, type Cluster, type ServiceProcess } from "../helpers/cluster/cluster";
import { LOADED_MODULES_PROBE, readLoadedModules } from "../helpers/loadedModules";

const ROOT = join(__dirname, "..", "..");

/**
 * What only the demo and the local chains need: the demo's own modules, the local-chain drivers, and Hardhat's EDR
 * (the in-process EVM). A configured service reaches chains over JSON-RPC and loads none of them.
 */
const DEMO_OR_LOCAL_CHAIN =
  /^(dist\/demo\/|dist\/main\/demoChains\.js$|dist\/chain\/(startLocalChain|serveJsonRpc|chainDriver)\.js$|node_modules\/(@nomicfoundation|hardhat)\/)/;

type PoolsBody = { pools: { id: string; horizon: number | null }[] };

describe("two service processes on one PostgreSQL against demo:chains (the multi-process harness)", function () {
  this.timeout(300_000);

  let cluster: Cluster;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let probeDir: string;

  before(async function () {
    cluster = await startCluster({ days: 20 });
    probeDir = mkdtempSync(join(tmpdir(), "cluster-modules-"));
    // One after the other, as an operator deploys: the first start applies the migrations. The first records every
    // module it loads (test/helpers/loadedModulesProbe.js), written when it exits.
    a = await cluster.start({
      name: "all-a",
      role: "all",
      env: { NODE_OPTIONS: `--require ${LOADED_MODULES_PROBE}`, LOADED_MODULES_FILE: join(probeDir, "a.ndjson") },
    });
    await a.waitForHttp("/api/v1/health", { timeoutMs: 120_000 });
    b = await cluster.start({ name: "all-b", role: "all" });
    await b.waitForHttp("/api/v1/health", { timeoutMs: 120_000 });
  });

  after(async function () {
    await cluster?.stop();
    if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  });

  it("starts both configured from demo.env, on the cluster's PostgreSQL", async function () {
    for (const service of [a, b]) {
      await service.waitFor(/configured: 17 pool\(s\) on chain\(s\) 1, 8453, 42161/);
      await service.waitFor("store: PostgreSQL");
      expect(service.running, service.name).to.equal(true);
    }
  });

  it("answers /api/v1/pools from both processes with the same pools", async function () {
    const [fromA, fromB] = await Promise.all([a.request("/api/v1/pools"), b.request("/api/v1/pools")]);
    expect(fromA.status).to.equal(200);
    expect(fromB.status).to.equal(200);
    const ids = (answer: { body: unknown }) => (answer.body as PoolsBody).pools.map((pool) => pool.id).sort();
    expect(ids(fromA)).to.have.length(17);
    expect(ids(fromB)).to.deep.equal(ids(fromA));
  });

  it("issues attestations signed by the attester registered on the demo's chain, served by both processes", async function () {
    const attester = privateKeyToAddress(readFileSync(cluster.chains.env.ATTESTER_KEY_FILE, "utf8").trim() as Hex);
    const { body } = await a.request("/api/v1/pools");
    const attested = (body as PoolsBody).pools.filter((pool) => pool.horizon !== null);
    // The demo's 15 completed days, backfilled from the feeds' /chart, are enough for most pools (the demo scripts a
    // few that are not).
    expect(attested.length).to.be.greaterThan(0);
    for (const service of [a, b]) {
      const answer = await service.request(`/api/v1/pool/${attested[0].id}`);
      expect(answer.status, service.name).to.equal(200);
      const attestation = parseAttestationJson({ text: JSON.stringify(answer.body) }) as Parameters<
        typeof verifyAttestation
      >[0]["attestation"];
      expect(verifyAttestation({ attestation, address: attester }).valid, service.name).to.equal(true);
    }
    const [{ count }] = await cluster.sql<{ count: string }>("SELECT count(*) AS count FROM attestations");
    expect(Number(count)).to.be.at.least(attested.length);
  });

  it("a configured service never loads the demo, the local-chain drivers or Hardhat's EVM (after passes that issued)", async function () {
    // Run last: it stops `a`, whose probe writes the modules its main thread loaded at exit.
    await a.stop(10_000);
    const records = readLoadedModules(join(probeDir, "a.ndjson")).filter((r) =>
      r.argv.some((arg) => arg.endsWith("start.js")),
    );
    expect(records, "the service process's record").to.have.length(1);
    const loaded = records[0].modules.map((file) => relative(ROOT, file).split("\\").join("/"));
    // The probe saw the service's own modules: the pass, issuance and the API.
    for (const expected of [
      "dist/main/start.js",
      "dist/attest/issueAttestations.js",
      "dist/ingest/runIngestionPass.js",
    ]) {
      expect(loaded, expected).to.include(expected);
    }
    expect(loaded.filter((file) => DEMO_OR_LOCAL_CHAIN.test(file))).to.deep.equal([]);
  });
});
