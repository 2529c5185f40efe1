import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { privateKeyToAddress } from "viem/accounts";
import { demoPoolConfigs, startFeedServer } from "../../src/demo/feedServer";
import { startDemoChains, type DemoChains } from "../../src/demo/startDemoChains";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { TEST_KEY } from "../helpers/service/app";
import { MainJob, freePort } from "../helpers/e2e/mainJob";

describe("npm start with configuration (RPC_URL_<id>, POOLS_FILE, feeds, key, registry)", function () {
  this.timeout(180_000);

  let dir: string;
  let demo: DemoChains;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  let job: MainJob;
  let base: string;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "service-configured-"));
    // Stand-ins for real chains and feeds: local chains and the loopback feed server, driven by this process.
    demo = await startDemoChains({ days: 2, attesterPrivateKey: TEST_KEY, log: () => undefined });
    feeds = await startFeedServer({ pools: demo.pools });
    const poolsFile = join(dir, "pools.json");
    writeFileSync(poolsFile, JSON.stringify({ pools: demoPoolConfigs(demo.pools) }, null, 2));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    job = new MainJob({
      DATA_DIR: join(dir, "data"),
      PORT: String(port),
      POOLS_FILE: poolsFile,
      ...Object.fromEntries(demo.chains.map((chain) => [`RPC_URL_${chain.chainId}`, chain.rpcUrl])),
      DEFILLAMA_YIELDS_URL: feeds.urls.defillamaYieldsUrl,
      DEFILLAMA_API_URL: feeds.urls.defillamaApiUrl,
      MERKL_API_URL: feeds.urls.merklApiUrl,
      ATTESTER_PRIVATE_KEY: TEST_KEY,
      REGISTRY_ADDRESS: demo.registry.address,
      REGISTRY_CHAIN_ID: String(demo.registry.chainId),
    });
    await job.waitFor(/ready: attester/);
  });

  after(async function () {
    job?.kill();
    await feeds?.close();
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs against the configured chains and pools, not the demo", async function () {
    expect(job.output).to.match(/configured: 17 pool\(s\) on chain\(s\) 1, 8453, 42161/);
    expect(job.output).to.not.match(/demo: starting/);
    const body = (await (await fetch(`${base}/api/v1/pools`)).json()) as { pools: { id: string; stale: boolean }[] };
    expect(body.pools.map((p) => p.id).sort()).to.deep.equal(
      demo.pools.map((p) => `eip155:${p.chainId}:${p.address.toLowerCase()}`).sort(),
    );
    expect(body.pools.every((p) => !p.stale)).to.equal(true);
  });

  it("signs with the configured key and names the configured registry", async function () {
    const body = await (await fetch(`${base}/api/v1/attester`)).json();
    expect(body).to.deep.equal({
      attester: privateKeyToAddress(TEST_KEY),
      scheme: "eip191-v1",
      registry: { chainId: demo.registry.chainId, address: demo.registry.address },
    });
    expect(job.output).to.include("(ATTESTER_PRIVATE_KEY)");
    expect(job.output).to.not.include(TEST_KEY.slice(2));
  });

  it("serves, per pool, an attestation that verifies or NO_ATTESTATION with the model's reason", async function () {
    const { pools } = (await (await fetch(`${base}/api/v1/pools`)).json()) as { pools: { id: string }[] };
    for (const pool of pools) {
      const response = await fetch(`${base}/api/v1/pool/${pool.id}`);
      const text = await response.text();
      if (response.status === 200) {
        const attestation = parseAttestationJson({ text }) as Parameters<typeof verifyAttestation>[0]["attestation"];
        expect(verifyAttestation({ attestation, address: privateKeyToAddress(TEST_KEY) }).valid).to.equal(true);
      } else {
        expect(response.status, text).to.equal(404);
        const { error } = JSON.parse(text);
        expect(error.code).to.equal("NO_ATTESTATION");
        expect(error.reason).to.be.a("string").and.not.equal("");
      }
    }
  });

  it("exits 78 with one line naming both chain ids when two RPC URLs are swapped, having written nothing", async function () {
    const rpc = (chainId: number) => demo.chains.find((chain) => chain.chainId === chainId)!.rpcUrl;
    const swapped = new MainJob({
      DATA_DIR: join(dir, "swapped"),
      PORT: "0",
      POOLS_FILE: join(dir, "pools.json"),
      ...Object.fromEntries(demo.chains.map((chain) => [`RPC_URL_${chain.chainId}`, chain.rpcUrl])),
      RPC_URL_1: rpc(42161),
      RPC_URL_42161: rpc(1),
      ATTESTER_PRIVATE_KEY: TEST_KEY,
    });
    expect(await swapped.exited).to.equal(78);
    expect(swapped.stderr.trim()).to.match(
      /^configuration error: RPC_URL_1: answers eth_chainId 42161, not 1 \(swapped RPC URLs\?\)[^\n]*$/,
    );
    expect(existsSync(join(dir, "swapped"))).to.equal(false);
  });

  it("exits 78 with one line for an invalid configuration", async function () {
    const bad = new MainJob({ DATA_DIR: join(dir, "bad"), PORT: "http" });
    expect(await bad.exited).to.equal(78);
    expect(bad.output.trim()).to.match(/configuration error: PORT: must be integer \(got "http"\)$/);
  });
});
