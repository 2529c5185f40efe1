import { readFileSync } from "node:fs";
import { expect } from "chai";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { startCluster, type Cluster, type ServiceProcess } from "../helpers/cluster/cluster";

type PoolsBody = { pools: { id: string; horizon: number | null }[] };

describe("two service processes on one PostgreSQL against demo:chains (the multi-process harness)", function () {
  this.timeout(300_000);

  let cluster: Cluster;
  let a: ServiceProcess;
  let b: ServiceProcess;

  before(async function () {
    cluster = await startCluster({ days: 20 });
    // One after the other, as an operator deploys: the first start applies the migrations.
    a = await cluster.start({ name: "all-a", role: "all" });
    await a.waitForHttp("/api/v1/health", { timeoutMs: 120_000 });
    b = await cluster.start({ name: "all-b", role: "all" });
    await b.waitForHttp("/api/v1/health", { timeoutMs: 120_000 });
  });

  after(async function () {
    await cluster?.stop();
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
});
