import { expect } from "chai";
import type { Address } from "viem";
import { demoDefillamaId, demoMerklId } from "../../src/demo/feedBodies";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "../../src/demo/feedServer";
import { FeedRequestError, FeedValidationError } from "../../src/errors/feeds";
import { fetchDexOverview } from "../../src/ingest/feeds/defillamaDexVolumes";
import { fetchDefillamaChart, fetchDefillamaPools } from "../../src/ingest/feeds/defillamaYields";
import { fetchMerklOpportunities } from "../../src/ingest/feeds/merkl";

const POOLS = [
  {
    chainId: 1,
    address: "0x1111111111111111111111111111111111111111" as Address,
    kind: "amm" as const,
    protocol: "uniswap-v2",
    symbol: "WETH-USDC",
    underlying: [
      "0x2222222222222222222222222222222222222222" as Address,
      "0x3333333333333333333333333333333333333333" as Address,
    ],
  },
  {
    chainId: 8453,
    address: "0x1111111111111111111111111111111111111111" as Address,
    kind: "lending" as const,
    protocol: "aave-v3",
    symbol: "USDC",
    underlying: ["0x4444444444444444444444444444444444444444" as Address],
    lendingPool: "0x5555555555555555555555555555555555555555" as Address,
  },
];
const NOW = Date.UTC(2026, 10, 20, 15) / 1000;
const fast = { timeoutMs: 1000, retries: 0, backoffMs: 1 };

describe("startFeedServer", () => {
  let server: FeedServer;
  beforeEach(async () => {
    server = await startFeedServer({
      pools: POOLS,
      now: () => NOW,
      snapshot: (p) => (p.chainId === 1 ? { tvlUsd: 1234567 } : undefined),
    });
  });
  afterEach(() => server.close());

  it("gives each pool stable, distinct ids per chain and address", () => {
    expect(demoDefillamaId(1, POOLS[0].address)).to.equal(
      demoDefillamaId(1, POOLS[0].address.toUpperCase().replace("0X", "0x")),
    );
    expect(demoDefillamaId(1, POOLS[0].address)).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(demoDefillamaId(1, POOLS[0].address)).to.not.equal(demoDefillamaId(8453, POOLS[0].address));
    expect(demoMerklId(1, POOLS[0].address)).to.match(/^\d+$/);
    const configs = demoPoolConfigs(POOLS);
    expect(configs[1]).to.deep.include({
      kind: "lending",
      underlying: "0x4444444444444444444444444444444444444444",
      lendingPool: "0x5555555555555555555555555555555555555555",
    });
  });

  it("serves responses the adapters accept, describing the given pools", async () => {
    const pools = (await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast })).rows;
    expect(pools.map((p) => [p.pool, p.chain, p.project])).to.deep.equal([
      [demoDefillamaId(1, POOLS[0].address), "Ethereum", "uniswap-v2"],
      [demoDefillamaId(8453, POOLS[1].address), "Base", "aave-v3"],
    ]);
    expect(pools[0].tvlUsd).to.equal(1234567);
    expect(pools[1].volumeUsd1d).to.equal(null);
    const chart = (
      await fetchDefillamaChart({
        yieldsUrl: server.urls.defillamaYieldsUrl,
        poolId: pools[0].pool,
        ...fast,
      })
    ).rows;
    expect(chart).to.have.length(1);
    expect(Date.parse(chart[0].timestamp) / 1000).to.equal(NOW);
    const dexs = (await fetchDexOverview({ apiUrl: server.urls.defillamaApiUrl, chain: "ethereum", ...fast })).overview;
    expect(dexs.totalDataChart).to.have.length(30);
    expect(dexs.protocols.map((p) => p.name)).to.deep.equal(["Uniswap V2"]);
    const { opportunities } = await fetchMerklOpportunities({
      merklUrl: server.urls.merklApiUrl,
      chainIds: [8453],
      ...fast,
    });
    expect(opportunities.map((o) => [o.id, o.identifier])).to.deep.equal([
      [demoMerklId(8453, POOLS[1].address), POOLS[1].address],
    ]);
    expect(opportunities[0].campaigns[0].endTimestamp).to.be.greaterThan(NOW + 99 * 86400);
  });

  it("answers 404 for an unknown pool or chain", async () => {
    let error: unknown;
    try {
      await fetchDefillamaChart({ yieldsUrl: server.urls.defillamaYieldsUrl, poolId: "nope", ...fast });
    } catch (e) {
      error = e;
    }
    expect((error as FeedRequestError).status).to.equal(404);
  });

  it("injects faults: 500, garbage, schema-invalid, timeout", async () => {
    const attempt = async () => {
      try {
        await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast, timeoutMs: 200 });
        return null;
      } catch (e) {
        return e;
      }
    };
    server.setFault("pools", "error");
    expect(((await attempt()) as FeedRequestError).status).to.equal(500);
    server.setFault("pools", "garbage");
    expect(await attempt()).to.be.instanceOf(FeedValidationError);
    server.setFault("pools", "invalid");
    // A row of the wrong shape is skipped and counted, not the whole answer.
    const invalid = await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast });
    expect(invalid).to.deep.include({ rows: [], rejectedRows: 1, answered: 1 });
    expect(invalid.reasons).to.deep.equal(["data[0].pool: Expected string, received number"]);
    server.setFault("pools", "timeout");
    expect(((await attempt()) as FeedRequestError).shortMessage).to.match(/timed out/);
    server.setFault("pools", "none");
    expect(await attempt()).to.equal(null);
    expect(server.requests.pools).to.equal(5);
  });
});
