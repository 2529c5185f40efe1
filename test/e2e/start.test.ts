import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { MainJob, ROOT, freePort } from "./mainJob";

const DEMO_DAYS = "16";

describe("npm start (end to end: demo chains, ingestion, API on a real port)", function () {
  this.timeout(240_000);

  let dataDir: string;
  let job: MainJob;
  let base: string;
  let chain1Rpc: string;

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), "service-e2e-"));
    const port = await freePort();
    job = new MainJob({ DATA_DIR: dataDir, PORT: String(port), DEMO_DAYS, INGEST_INTERVAL_S: "3600" });
    await job.waitFor(/ready: attester/);
    base = `http://127.0.0.1:${port}`;
    chain1Rpc = (await job.waitFor(/demo: chain 1 at (http:\/\/\S+)/))[1];
  });

  after(async function () {
    job?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const getJson = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, text: await response.text() };
  };

  it("creates the dev attester key once, mode 0600, and never prints it", async function () {
    const mode = statSync(join(dataDir, "attester.key")).mode & 0o777;
    expect(mode).to.equal(0o600);
    const { readFileSync } = await import("node:fs");
    const key = readFileSync(join(dataDir, "attester.key"), "utf8").trim();
    expect(job.output).to.not.include(key.slice(2));
  });

  it("lists the demo's pools on three chains, all fresh", async function () {
    const { status, text } = await getJson("/api/v1/pools");
    expect(status).to.equal(200);
    const body = JSON.parse(text);
    expect(body.pools.length).to.be.greaterThanOrEqual(9);
    expect(new Set(body.pools.map((p: { chainId: number }) => p.chainId))).to.deep.equal(new Set([1, 42161, 8453]));
    expect(body.pools.every((p: { stale: boolean }) => !p.stale)).to.equal(true);
    expect(body.heldOut.pools).to.deep.equal([]);
    expect(body.total.depthUsd).to.be.greaterThan(0);
  });

  describe("a served attestation", function () {
    let id: string;
    let text: string;
    let attester: Address;

    before(async function () {
      attester = JSON.parse((await getJson("/api/v1/attester")).text).attester;
      const { pools } = JSON.parse((await getJson("/api/v1/pools")).text) as { pools: { id: string }[] };
      for (const pool of pools) {
        const res = await getJson(`/api/v1/pool/${pool.id}`);
        if (res.status === 200 && pool.id.startsWith("eip155:1:")) {
          id = pool.id;
          text = res.text;
          break;
        }
      }
      expect(id, "an attested pool on chain 1").to.be.a("string");
    });

    it("verifies with the library against GET /api/v1/attester, fresh", async function () {
      const attestation = parseAttestationJson({ text }) as Parameters<typeof verifyAttestation>[0]["attestation"];
      expect(verifyAttestation({ attestation, address: attester })).to.deep.include({ valid: true, expired: false });
    });

    it("verifies with the CLI: node bin/attest.js verify --url … --pool …", async function () {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["bin/attest.js", "verify", "--url", base, "--pool", id],
        { cwd: ROOT },
      );
      expect(JSON.parse(stdout.trim().split("\n").pop() as string)).to.include({ valid: true, expired: false });
    });

    it("verifies through POST /api/v1/verify", async function () {
      const response = await fetch(`${base}/api/v1/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      });
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.include({ valid: true, expired: false, attester });
    });

    it("carries a v2 block that the registry on chain 1 verifies as valid", async function () {
      const { eip712, chainId, pool } = JSON.parse(text);
      const registry = JSON.parse((await getJson("/api/v1/attester")).text).registry;
      expect(registry.chainId).to.equal(1);
      expect(eip712.domain.verifyingContract).to.equal(registry.address);
      const client = createPublicClient({ transport: http(chain1Rpc) });
      const m = eip712.message;
      const [valid, recovered] = await client.readContract({
        address: registry.address,
        abi: attestationRegistryAbi,
        functionName: "verify",
        args: [
          {
            chainId: BigInt(m.chainId),
            pool: m.pool,
            confidence: Number(m.confidence),
            horizonDays: Number(m.horizonDays),
            issuedAt: BigInt(m.issuedAt),
            expiresAt: BigInt(m.expiresAt),
          },
          eip712.signature as Hex,
        ],
      });
      expect(valid).to.equal(true);
      expect(recovered).to.equal(attester);
      expect(BigInt(m.chainId)).to.equal(BigInt(chainId));
      expect(m.pool.toLowerCase()).to.equal(pool);
    });
  });

  describe("shutdown and restart", function () {
    it("shuts down cleanly on SIGINT and a second start reuses DATA_DIR (same key, same store)", async function () {
      const attester = JSON.parse((await getJson("/api/v1/attester")).text).attester;
      const before = JSON.parse((await getJson("/api/v1/health")).text);
      job.child.kill("SIGINT");
      expect(await job.exited).to.equal(0);
      expect(job.output).to.match(/SIGINT: shutting down[\s\S]*stopped/);
      let refused = false;
      await fetch(`${base}/api/v1/health`).catch(() => (refused = true));
      expect(refused, "the port is closed").to.equal(true);

      const port = await freePort();
      job = new MainJob({ DATA_DIR: dataDir, PORT: String(port), DEMO_DAYS, INGEST_INTERVAL_S: "3600" });
      await job.waitFor(/ready: attester/);
      base = `http://127.0.0.1:${port}`;
      expect(job.output).to.include("dev key reused");
      expect(JSON.parse((await getJson("/api/v1/attester")).text).attester).to.equal(attester);
      const after = JSON.parse((await getJson("/api/v1/health")).text);
      expect(after.attestations).to.be.greaterThanOrEqual(before.attestations);
      expect(after.pools).to.equal(before.pools);
      job.child.kill("SIGTERM");
      expect(await job.exited).to.equal(0);
    });

    it("stops cleanly on SIGINT in the middle of startup", async function () {
      const early = new MainJob({ DATA_DIR: dataDir, PORT: String(await freePort()), DEMO_DAYS });
      await early.waitFor(/demo: setup done/);
      early.child.kill("SIGINT");
      expect(await early.exited).to.equal(0);
      expect(early.output).to.match(/SIGINT: stopping after the current startup step[\s\S]*stopped/);
      expect(early.output).to.not.match(/ready: attester/);
    });
  });
});
