import { expect } from "chai";
import { createPublicClient, http, type PublicClient } from "viem";
import { DEMO_STALE_POOL } from "../../src/demo/demoConfig";
import { startDemoSource } from "../../src/demo/demoSource";
import { pinLogFilter } from "../../src/demo/pinnedClient";
import { SILENCED_REASON } from "../../src/demo/silencedRpc";
import { fetchDefillamaPools } from "../../src/ingest/feeds/defillamaYields";
import { fetchMerklOpportunities } from "../../src/ingest/feeds/merkl";
import { readPools } from "../../src/ingest/onchain/readPools";
import type { HistoryMoment, IngestSource } from "../../src/ingest/source";
import type { Store } from "../../src/storage/openStore";

const ATTESTER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
const DAYS = 6;
const fast = { timeoutMs: 5000, retries: 0, backoffMs: 1 };

/** What one pass of the source sees: per chain, the pools observed and the ones that failed (with why). */
type Seen = { observed: string[]; failed: { address: string; error: string }[]; yields: string[]; merkl: string[] };

describe("startDemoSource (the demo as the service's IngestSource)", function () {
  this.timeout(120_000);
  let source: IngestSource;
  const lines: string[] = [];
  const replayed: Seen[] = [];
  let live: Seen;

  /** Reads every pool through the pass's clients, and the feeds, as a pass at this moment would. */
  async function look(chains: HistoryMoment["chains"]): Promise<Seen> {
    const seen: Seen = { observed: [], failed: [], yields: [], merkl: [] };
    for (const { chainId, client } of chains) {
      const result = await readPools({ client, pools: source.pools.filter((p) => p.chainId === chainId) });
      seen.observed.push(...result.observations.map((o) => `${chainId}:${o.address.toLowerCase()}`));
      seen.failed.push(
        ...result.failures.map((f) => ({ address: `${chainId}:${f.address.toLowerCase()}`, error: f.error })),
      );
    }
    seen.yields = (await fetchDefillamaPools({ yieldsUrl: source.feeds.defillamaYieldsUrl!, ...fast })).rows.map(
      (p) => p.pool,
    );
    seen.merkl = (
      await fetchMerklOpportunities({ merklUrl: source.feeds.merklApiUrl!, chainIds: [1, 42161, 8453], ...fast })
    ).opportunities.map((o) => o.id);
    return seen;
  }

  before(async function () {
    source = await startDemoSource({
      config: { demo: { days: DAYS, seed: 1 }, feeds: {}, registry: null },
      attesterPrivateKey: ATTESTER_KEY,
      store: {} as Pick<Store, "db">,
      log: (line) => lines.push(line),
    });
    await source.replayHistory!(async (moment) => {
      replayed.push(await look(moment.chains));
    });
    await source.beforePass!();
    live = await look(source.chains);
  });

  after(async function () {
    await source?.stop();
  });

  const silent = () =>
    source.pools.find((p) => p.chainId === DEMO_STALE_POOL.chainId && p.symbol === DEMO_STALE_POOL.name)!;
  const key = (p: { chainId: number; address: string }) => `${p.chainId}:${p.address.toLowerCase()}`;

  it("tracks 17 pools on two AMM venues and Aave v3, each with the feeds' ids", function () {
    expect(source.pools).to.have.length(17);
    expect(new Set(source.pools.map((p) => p.protocol))).to.deep.equal(
      new Set(["uniswap-v2", "sushiswap-v2", "aave-v3"]),
    );
    for (const pool of source.pools) {
      expect(pool.merklId).to.match(/^\d+$/);
      expect(pool.defillamaId).to.be.a("string");
    }
  });

  it("asks retention to keep its whole simulated history (keepSince: the first replayed day's end, DAYS − 1 days back)", async function () {
    expect(source.keepSince).to.be.a("number");
    const first = replayed.length > 0 ? await source.chains[0].client.getBlock() : null;
    expect(first).to.not.equal(null);
    const days = (Number(first!.timestamp) - source.keepSince!) / 86_400;
    expect(days).to.be.within(DAYS - 2, DAYS);
  });

  it("keeps the silent pool tracked, and reports it until silentDays before the present", function () {
    expect(DEMO_STALE_POOL.silentDays).to.equal(3);
    const lastReported = DAYS - 1 - DEMO_STALE_POOL.silentDays;
    expect(replayed).to.have.length(DAYS - 1);
    replayed.forEach((seen, day) => {
      const reported = day <= lastReported;
      expect(seen.observed.includes(key(silent())), `day ${day}`).to.equal(reported);
      expect(seen.observed).to.have.length(reported ? 17 : 16);
      expect(seen.yields.includes(silent().defillamaId!), `day ${day} yields`).to.equal(reported);
    });
    expect(lines.some((l) => l.includes(`stops reporting after day ${lastReported + 1}/${DAYS}`))).to.equal(true);
  });

  it("then refuses its reads on chain (every other pool answers) and leaves it out of the feeds", function () {
    for (const seen of [...replayed.slice(DAYS - 1 - DEMO_STALE_POOL.silentDays + 1), live]) {
      expect(seen.failed).to.have.length(1);
      expect(seen.failed[0].address).to.equal(key(silent()));
      expect(seen.failed[0].error).to.include(SILENCED_REASON);
      expect(seen.yields).to.have.length(16);
    }
    expect(live.observed).to.have.length(16);
  });

  it("leaves the chain itself alone: the pair still trades and reads fine without the demo's clients", async function () {
    const rpcUrl = source.localChains.find((c) => c.chainId === DEMO_STALE_POOL.chainId)!.rpcUrl;
    const client = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
    const { observations, failures } = await readPools({ client, pools: [silent()] });
    expect(failures).to.deep.equal([]);
    expect(observations[0].depthUsd).to.be.greaterThan(0);
  });

  it("serves the Merkl campaigns of the tracked pools, by the pools' merklId", function () {
    const ids = new Set(source.pools.map((p) => p.merklId));
    expect(live.merkl.length).to.be.at.least(8);
    for (const id of live.merkl) expect(ids.has(id)).to.equal(true);
    expect(lines.some((l) => /^demo: 14 Merkl campaigns: /.test(l))).to.equal(true);
  });
});

describe("pinLogFilter", function () {
  it("cuts an eth_getLogs range at the pinned block", function () {
    expect(pinLogFilter({ fromBlock: "0x1", toBlock: "latest", address: "0xab" }, 10n)).to.deep.equal({
      fromBlock: "0x1",
      toBlock: "0xa",
      address: "0xab",
    });
    expect(pinLogFilter({ fromBlock: "0x2", toBlock: "0x20" }, 10n)).to.deep.equal({
      fromBlock: "0x2",
      toBlock: "0xa",
    });
    expect(pinLogFilter({ fromBlock: "0x2", toBlock: "0x5" }, 10n)).to.deep.equal({ fromBlock: "0x2", toBlock: "0x5" });
    expect(pinLogFilter({ fromBlock: "0xb" }, 10n)).to.equal(null);
    expect(pinLogFilter({ blockHash: "0x12" }, 10n)).to.deep.equal({ blockHash: "0x12" });
  });
});
