import { expect } from "chai";
import type { DefillamaPool } from "../../../src/ingest/feeds/defillamaYields";
import { poolValues, type OnchainReading } from "../../../src/ingest/rows/poolValues";
import type { PoolConfig } from "../../../src/model/poolConfig";

const config: PoolConfig = {
  chainId: 1,
  address: "0x00000000000000000000000000000000000000aa",
  kind: "amm",
  symbol: "USDC-WETH",
  protocol: "uniswap-v2",
};
const reading = (figures: Partial<OnchainReading["observation"]>): OnchainReading => ({
  observation: {
    chainId: 1,
    address: "0x00000000000000000000000000000000000000AA",
    kind: "amm",
    depthUsd: null,
    exitableUsd: null,
    supplyRatePercent: null,
    state: { reserve0: "1" },
    ...figures,
  },
  block: "42",
  observedAt: 1000,
});
const llama: DefillamaPool = {
  pool: "uuid-1",
  chain: "Ethereum",
  project: "uniswap-v2",
  symbol: "USDC-WETH",
  tvlUsd: 2_000_000,
  apy: 4.2,
  volumeUsd1d: 123,
};

describe("poolValues", () => {
  it("sets nothing but the configured ids when no source gave a value", () => {
    expect(poolValues({ config, feedsObservedAt: 2000 })).to.deep.equal({});
    expect(
      poolValues({ config: { ...config, defillamaId: "uuid-1", merklId: "m" }, feedsObservedAt: 2000 }),
    ).to.deep.equal({ defillama_id: "uuid-1", merkl_id: "m" });
  });

  it("takes depth, exitability and supply rate from the reading, with the block's time and number", () => {
    const values = poolValues({
      config,
      reading: reading({ depthUsd: 10, exitableUsd: 8, supplyRatePercent: 3.1 }),
      feedsObservedAt: 2000,
    });
    expect(values).to.deep.equal({
      state_json: JSON.stringify({ reserve0: "1" }),
      depth_usd: 10,
      depth_observed_at: 1000,
      depth_block: "42",
      exitable_usd: 8,
      supply_rate_percent: 3.1,
      supply_rate_observed_at: 1000,
    });
  });

  it("leaves out figures that are null or not finite, keeping the raw state", () => {
    const values = poolValues({
      config,
      reading: reading({ depthUsd: Number.NaN, exitableUsd: Number.POSITIVE_INFINITY, supplyRatePercent: null }),
      feedsObservedAt: 2000,
    });
    expect(values).to.deep.equal({ state_json: JSON.stringify({ reserve0: "1" }) });
  });

  it("takes TVL, APY and 24 h volume from the yields feed at the feeds' time, skipping missing ones", () => {
    expect(poolValues({ config, llama, feedsObservedAt: 2000 })).to.deep.equal({
      tvl_usd: 2_000_000,
      apy_percent: 4.2,
      feed_observed_at: 2000,
      volume_24h_usd: 123,
      volume_observed_at: 2000,
    });
    expect(
      poolValues({ config, llama: { ...llama, apy: null, volumeUsd1d: undefined }, feedsObservedAt: 2000 }),
    ).to.deep.equal({ tvl_usd: 2_000_000, feed_observed_at: 2000 });
  });
});
