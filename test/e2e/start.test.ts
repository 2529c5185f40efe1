import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { MainJob, ROOT, freePort, nonJsonLines } from "../helpers/e2e/mainJob";

const DEMO_DAYS = "20";

describe("npm start (end to end: demo chains, ingestion, API on a real port)", function () {
  this.timeout(240_000);

  let dataDir: string;
  let job: MainJob;
  let base: string;
  let chain1Rpc: string;

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), "service-e2e-"));
    chmodSync(dataDir, 0o755); // as an older version left it: the start tightens it
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

  it("tightens DATA_DIR to 0700 and keeps the SQLite files 0600", function () {
    expect(statSync(dataDir).mode & 0o777).to.equal(0o700);
    expect(job.output).to.match(/DATA_DIR .* was mode 0755; now 0700/);
    const file = join(dataDir, "service.sqlite");
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      if (path === file || existsSync(path)) expect(statSync(path).mode & 0o777, path).to.equal(0o600);
    }
  });

  it("writes every stdout line as one JSON log object naming this process", function () {
    expect(nonJsonLines(job.stdout)).to.deep.equal([]);
    const lines = job.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; instance?: string; msg: string });
    expect(new Set(lines.map((line) => line.instance)).size, "one instance on every line").to.equal(1);
    expect(lines[0].instance).to.be.a("string").and.not.equal("");
    expect(lines.find((line) => line.msg.startsWith("ready: attester"))).to.include({ level: 30 });
  });

  it("after its issuing pass, evaluates the model (GET /api/v1/model) and runs its first retention prune", async function () {
    expect(job.output).to.match(/ingestion pass \(issuing\)[^\n]*\n[\s\S]*model evaluation: \d+ of \d+ claims scored/);
    expect(job.output).to.match(/retention: pruned /);
    const model = JSON.parse((await getJson("/api/v1/model")).text) as {
      evaluation: { scored: number; claims: number } | null;
      versions: { model: string }[];
    };
    // 20 simulated days make few claims and close no window yet: the evaluation is there, with what it has.
    expect(model.evaluation, "computed after the issuing pass").to.not.equal(null);
    expect(model.evaluation!.claims).to.be.at.least(model.evaluation!.scored);
    expect(model.versions.length).to.be.at.least(1);
  });

  it("answers the probes and /metrics on its port", async function () {
    expect(JSON.parse((await getJson("/livez")).text)).to.deep.equal({ live: true });
    const ready = await getJson("/readyz");
    expect(ready.status).to.equal(200);
    expect(JSON.parse(ready.text)).to.include({ ready: true, role: "all" });
    const metrics = (await getJson("/metrics")).text;
    expect(metrics).to.match(/^attest_http_requests_total\{method="GET",route="\/readyz",status="200"\} \d+$/m);
  });

  /** The pool whose source the demo stops (announced in the log): `eip155:<chainId>:<address>`. */
  const silentPoolId = () => {
    const [, chainId, address] = job.output.match(
      /demo: \S+ \(\S+, chain (\d+), (0x[0-9a-fA-F]{40})\) stops reporting/,
    )!;
    return `eip155:${chainId}:${address.toLowerCase()}`;
  };

  it("lists the demo's pools on three chains and two AMM venues, all fresh but the silent one", async function () {
    const { status, text } = await getJson("/api/v1/pools");
    expect(status).to.equal(200);
    const body = JSON.parse(text);
    expect(body.pools.length).to.equal(17);
    expect(new Set(body.pools.map((p: { chainId: number }) => p.chainId))).to.deep.equal(new Set([1, 42161, 8453]));
    expect(new Set(body.pools.map((p: { protocol: string }) => p.protocol))).to.deep.equal(
      new Set(["uniswap-v2", "sushiswap-v2", "aave-v3"]),
    );
    expect(body.pools.filter((p: { stale: boolean }) => !p.stale)).to.have.length(16);
    expect(body.total.depthUsd).to.be.greaterThan(0);
  });

  it("shows the pool whose source stopped as stale, held out of the total, its depth more than an hour old", async function () {
    type Pool = { id: string; stale: boolean; depthUsd: number | null; observedAt: number | null };
    const body = JSON.parse((await getJson("/api/v1/pools")).text) as {
      pools: Pool[];
      total: { depthUsd: number; pools: number };
      heldOut: { depthUsd: number; pools: string[] };
    };
    const id = silentPoolId();
    const silent = body.pools.find((p) => p.id === id)!;
    expect(silent.stale).to.equal(true);
    expect(silent.depthUsd).to.be.greaterThan(0);
    expect(silent.observedAt).to.be.lessThan(Math.floor(Date.now() / 1000) - 3600);
    expect(body.heldOut.pools).to.deep.equal([id]);
    expect(body.heldOut.depthUsd).to.equal(silent.depthUsd);
    const fresh = body.pools.filter((p) => !p.stale);
    expect(body.total.pools).to.equal(fresh.length);
    expect(body.total.depthUsd).to.be.closeTo(
      fresh.reduce((n, p) => n + (p.depthUsd ?? 0), 0),
      1e-6 * body.total.depthUsd,
    );
    // Each pass tried it and said why it got nothing.
    expect(job.output).to.match(/ingestion pass \(issuing\): partial, 16 pool\(s\) observed, .*failing: chain:8453/);
  });

  it("has Merkl campaigns on the demo pools: one pool with two, ending on several dates, started and ended ones", async function () {
    const map = await getJson("/api/v1/liquidity-map");
    expect(map.status, map.text).to.equal(200);
    type Entry = { date: string; pools: { id: string; campaigns: unknown[] }[] };
    const calendar = (JSON.parse(map.text) as { expiryCalendar: Entry[] }).expiryCalendar;
    const today = new Date().toISOString().slice(0, 10);
    const future = calendar.filter((entry) => entry.date > today);
    expect(new Set(future.map((entry) => entry.date)).size).to.be.at.least(6);
    const twice = calendar.flatMap((entry) => entry.pools).filter((pool) => pool.campaigns.length === 2);
    expect(twice.map((pool) => pool.id.split(":")[1])).to.deep.equal(["1"]);
    // The campaigns' starts and ends during the 20 simulated days, and the silent pool turning stale, are events.
    const activity = await getJson("/api/v1/activity?limit=200");
    expect(activity.status, activity.text).to.equal(200);
    const events = (JSON.parse(activity.text) as { events: { kind: string; poolId: string | null }[] }).events;
    expect(events.some((e) => e.kind === "campaign.started")).to.equal(true);
    expect(events.some((e) => e.kind === "campaign.ended")).to.equal(true);
    expect(events.filter((e) => e.kind === "pool.stale").map((e) => e.poolId)).to.deep.equal([silentPoolId()]);
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
