import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "chai";
import { createPublicClient, http, parseAbi, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { loadConfig } from "../../src/config/loadConfig";
import { SILENCED_REASON } from "../../src/demo/silencedRpc";
import { loadPoolsFile } from "../../src/ingest/poolsFile";
import type { PoolConfig } from "../../src/model/poolConfig";
import { startDemoChainsProcess, until, type DemoChainsProcess } from "../helpers/cluster/cluster";

const DAYS = 16;
const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]);

describe("npm run demo:chains (the demo's chains and feeds alone, for configured processes)", function () {
  this.timeout(240_000);

  let chains: DemoChainsProcess;
  let pools: PoolConfig[];
  /** The pool whose source the demo stops (announced in its log). */
  let silent: { chainId: number; address: Address };

  before(async function () {
    chains = await startDemoChainsProcess({ days: DAYS });
    pools = await loadPoolsFile({ path: chains.env.POOLS_FILE });
    const { match } = await chains.process.waitFor(/\(\S+, chain (\d+), (0x[0-9a-fA-F]{40})\) stops reporting/);
    silent = { chainId: Number(match[1]), address: match[2] as Address };
  });

  after(async function () {
    await chains?.stop();
  });

  const client = (chainId: number) => createPublicClient({ transport: http(chains.env[`RPC_URL_${chainId}`]) });

  it("writes DATA_DIR/demo.env (mode 0600) with every variable a configured process needs, the pools file beside it", function () {
    expect(chains.envFile).to.equal(join(chains.dataDir, "demo.env"));
    expect(statSync(chains.envFile).mode & 0o777).to.equal(0o600);
    expect(Object.keys(chains.env).sort()).to.deep.equal(
      [
        "ATTESTER_KEY_FILE",
        "DEFILLAMA_API_URL",
        "DEFILLAMA_COINS_URL",
        "DEFILLAMA_YIELDS_URL",
        "MERKL_API_URL",
        "POOLS_FILE",
        "REGISTRY_ADDRESS",
        "REGISTRY_CHAIN_ID",
        "RPC_URL_1",
        "RPC_URL_42161",
        "RPC_URL_8453",
      ].sort(),
    );
    expect(dirname(chains.env.POOLS_FILE)).to.equal(chains.dataDir);
    expect(pools).to.have.length(17);
    expect(chains.env.ATTESTER_KEY_FILE).to.equal(join(chains.dataDir, "attester.key"));
    // The demo serves no coin prices: the variable is there, empty, so a value inherited from the shell is not used.
    expect(chains.env.DEFILLAMA_COINS_URL).to.equal("");
  });

  it("is a configuration the service accepts as is: configured mode, the demo's registry, no coin prices", function () {
    const config = loadConfig({
      env: { ...chains.env, SERVICE_ROLE: "worker", DATABASE_URL: "postgres://postgres@127.0.0.1:5432/attest" },
    });
    expect(config.mode).to.equal("configured");
    expect(
      Object.keys(config.rpcUrls)
        .map(Number)
        .sort((a, b) => a - b),
    ).to.deep.equal([1, 8453, 42161]);
    expect(config.registry).to.deep.equal({
      chainId: Number(chains.env.REGISTRY_CHAIN_ID),
      address: chains.env.REGISTRY_ADDRESS,
    });
    expect(config.feeds.defillamaCoinsUrl).to.equal(undefined);
    expect(config.attesterKey).to.deep.equal({ file: chains.env.ATTESTER_KEY_FILE });
  });

  it("has the key of ATTESTER_KEY_FILE registered in the registry at REGISTRY_ADDRESS", async function () {
    const key = readFileSync(chains.env.ATTESTER_KEY_FILE, "utf8").trim() as Hex;
    const info = await client(Number(chains.env.REGISTRY_CHAIN_ID)).readContract({
      address: chains.env.REGISTRY_ADDRESS as Address,
      abi: attestationRegistryAbi,
      functionName: "getAttester",
      args: [privateKeyToAddress(key)],
    });
    expect(info.registered).to.equal(true);
    expect(info.bond > 0n).to.equal(true);
  });

  it("serves each chain under its id, and refuses the silent pool's reads on its own chain only", async function () {
    for (const chainId of [1, 8453, 42161]) expect(await client(chainId).getChainId()).to.equal(chainId);
    const read = (chainId: number, address: Address) =>
      client(chainId).readContract({ address, abi: pairAbi, functionName: "getReserves" });
    await read(silent.chainId, silent.address).then(
      () => expect.fail("the silent pool answered"),
      (error: Error) => expect(error.message).to.include(SILENCED_REASON),
    );
    const other = pools.find(
      (pool) => pool.chainId === silent.chainId && pool.kind === "amm" && pool.address !== silent.address.toLowerCase(),
    )!;
    const [reserve0] = await read(other.chainId, other.address);
    expect(reserve0 > 0n).to.equal(true);
  });

  it("serves each pool's simulated days in the feeds' /chart (the backfill), and stops listing the silent pool", async function () {
    type Chart = { data: { timestamp: string; tvlUsd: number }[] };
    const chart = async (pool: PoolConfig) =>
      (await (await fetch(`${chains.env.DEFILLAMA_YIELDS_URL}/chart/${pool.defillamaId}`)).json()) as Chart;
    const listed = async () =>
      ((await (await fetch(`${chains.env.DEFILLAMA_YIELDS_URL}/pools`)).json()) as { data: { pool: string }[] }).data;

    const tracked = pools.find((pool) => pool.address !== silent.address.toLowerCase())!;
    const points = (await chart(tracked)).data;
    // Every simulated day but the last (the present, read live), one point each, then the present.
    expect(points).to.have.length(DAYS);
    const days = points.map((point) => point.timestamp.slice(0, 10));
    expect(new Set(days).size).to.equal(DAYS);
    expect(points.every((point) => point.tvlUsd > 0)).to.equal(true);

    const silentPool = pools.find((p) => p.chainId === silent.chainId && p.address === silent.address.toLowerCase())!;
    // Reported until three days before the last day (days 1 … 13 of 16), then the present.
    expect((await chart(silentPool)).data).to.have.length(DAYS - 3 + 1);
    const ids = (await listed()).map((entry) => entry.pool);
    expect(ids).to.include(tracked.defillamaId);
    expect(ids).to.not.include(silentPool.defillamaId);
  });

  it("keeps the chains' clocks moving: a new block at the wall clock while it serves", async function () {
    const chain = client(1);
    const before = await chain.getBlock({ blockTag: "latest" });
    const waitingFrom = BigInt(Math.floor(Date.now() / 1000));
    const next = await until(
      "a new block on chain 1",
      async () => {
        const latest = await chain.getBlock({ blockTag: "latest" });
        return latest.number > before.number ? latest : undefined;
      },
      40_000,
    );
    expect(next.timestamp >= waitingFrom).to.equal(true);
  });

  it("stops cleanly on SIGTERM: exit 0, demo.env removed, the endpoints closed", async function () {
    const exit = await chains.process.stop();
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(chains.process.messages()).to.include("stopped");
    expect(existsSync(chains.envFile)).to.equal(false);
    await client(1)
      .getChainId()
      .then(
        () => expect.fail("the chain still answers"),
        (error: Error) => expect(error).to.be.an("error"),
      );
  });
});
