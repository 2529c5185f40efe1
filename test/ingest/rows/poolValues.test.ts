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

  it("takes depth, exitability and supply rate from the reading, each with its own time and the block", () => {
    const values = poolValues({
      config: { ...config, kind: "lending" },
      reading: { ...reading({ kind: "lending", depthUsd: 10, exitableUsd: 8, supplyRatePercent: 3.1 }), valuedAt: 900 },
      feedsObservedAt: 2000,
    });
    expect(values).to.deep.equal({
      state_json: JSON.stringify({ reserve0: "1" }),
      depth_usd: 10,
      depth_observed_at: 900,
      depth_block: "42",
      exitable_usd: 8,
      exitable_observed_at: 900,
      supply_rate_percent: 3.1,
      supply_rate_observed_at: 1000,
    });
  });

  it("never sets exitability on an AMM pool, and values depth at the block's time by default", () => {
    const values = poolValues({ config, reading: reading({ depthUsd: 10, exitableUsd: 8 }), feedsObservedAt: 2000 });
    expect(values).to.deep.equal({
      state_json: JSON.stringify({ reserve0: "1" }),
      depth_usd: 10,
      depth_observed_at: 1000,
      depth_block: "42",
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

  it("takes TVL and APY from the yields feed, the APY's time only with an APY, and never the feed's volume", () => {
    expect(poolValues({ config, llama, feedsObservedAt: 2000 })).to.deep.equal({
      tvl_usd: 2_000_000,
      feed_observed_at: 2000,
      apy_percent: 4.2,
      apy_observed_at: 2000,
      apy_base_percent: null,
      apy_reward_percent: null,
    });
    expect(
      poolValues({ config, llama: { ...llama, apy: null, volumeUsd1d: undefined }, feedsObservedAt: 2000 }),
    ).to.deep.equal({ tvl_usd: 2_000_000, feed_observed_at: 2000 });
  });

  it("takes the feed's base and reward APY with the APY, from the same row, and never without it", () => {
    expect(poolValues({ config, llama: { ...llama, apyBase: 1.5, apyReward: 2.7 }, feedsObservedAt: 2000 })).to.include(
      { apy_percent: 4.2, apy_base_percent: 1.5, apy_reward_percent: 2.7, apy_observed_at: 2000 },
    );
    expect(
      poolValues({ config, llama: { ...llama, apyBase: 4.2, apyReward: null }, feedsObservedAt: 2000 }),
    ).to.include({
      apy_base_percent: 4.2,
      apy_reward_percent: null,
    });
    // A row without an APY leaves the stored sum and its split to age together.
    const without = poolValues({
      config,
      llama: { ...llama, apy: null, apyBase: 1, apyReward: 1 },
      feedsObservedAt: 2000,
    });
    expect(without).not.to.have.any.keys("apy_percent", "apy_base_percent", "apy_reward_percent");
  });

  it("takes the 24 h volume from the swap logs for an AMM pool only", () => {
    const volume = { usd: 1234.5, observedAt: 1900 };
    expect(poolValues({ config, volume, feedsObservedAt: 2000 })).to.deep.equal({
      volume_24h_usd: 1234.5,
      volume_observed_at: 1900,
    });
    expect(poolValues({ config: { ...config, kind: "lending" }, volume, feedsObservedAt: 2000 })).to.deep.equal({});
  });
});
