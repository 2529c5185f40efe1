import { expect } from "chai";
import { priceReading, readingTokens, type PriceQuote } from "../../../src/ingest/rows/priceReading";
import type { OnchainReading } from "../../../src/ingest/rows/poolValues";

const T0 = "0x00000000000000000000000000000000000000a0";
const T1 = "0x00000000000000000000000000000000000000A1";
const amm: OnchainReading = {
  observation: {
    chainId: 1,
    address: "0x00000000000000000000000000000000000000aa",
    kind: "amm",
    depthUsd: 4_000_000,
    exitableUsd: null,
    supplyRatePercent: null,
    state: {
      token0: T0,
      token1: T1,
      reserve0: "1000000000000",
      reserve1: "500000000000000000000",
      decimals0: 6,
      decimals1: 18,
      price0Usd: 1,
      price0Source: "usd-anchor",
      price1Usd: 2000,
      price1Source: "pair:0xaa",
    },
  },
  block: "10",
  observedAt: 1000,
};
const lending: OnchainReading = {
  observation: {
    chainId: 1,
    address: "0x00000000000000000000000000000000000000bb",
    kind: "lending",
    depthUsd: 400,
    exitableUsd: 400,
    supplyRatePercent: 3.1,
    state: { underlying: T0, decimals: 6, exitable: "400000000", priceUsd: 1, priceSource: "usd-anchor" },
  },
  block: "10",
  observedAt: 1000,
};
const quotes = (entries: Record<string, PriceQuote>) => (token: string) => entries[token.toLowerCase()];

describe("priceReading", () => {
  it("values an AMM's reserves with the quotes and times them by the older of block and quotes", () => {
    const priced = priceReading({
      reading: amm,
      quote: quotes({
        [T0]: { usd: 0.99, at: 990, source: "defillama-coins" },
        [T1.toLowerCase()]: { usd: 2500, at: 1010, source: "defillama-coins" },
      }),
    });
    expect(priced.observation.depthUsd).to.equal(1_000_000 * 0.99 + 500 * 2500);
    expect(priced.valuedAt).to.equal(990);
    expect(priced.observation.state).to.deep.include({
      price0Usd: 0.99,
      price0Source: "defillama-coins",
      price0At: 990,
      price1Usd: 2500,
      price1At: 1010,
    });
  });

  it("measures nothing when a token has no quote (and drops the on-chain prices from the state)", () => {
    const priced = priceReading({ reading: amm, quote: quotes({ [T0]: { usd: 1, at: 900, source: "x" } }) });
    expect(priced.observation.depthUsd).to.equal(null);
    expect(priced.valuedAt).to.equal(1000);
    expect(priced.observation.state).to.not.have.property("price1Usd");
    expect(priced.observation.state).to.include({ price0Usd: 1 });
  });

  it("values a lending reserve's exitable liquidity (its depth) with the underlying's quote", () => {
    const priced = priceReading({ reading: lending, quote: quotes({ [T0]: { usd: 1.01, at: 400, source: "x" } }) });
    expect(priced.observation).to.deep.include({ depthUsd: 404, exitableUsd: 404, supplyRatePercent: 3.1 });
    expect(priced.valuedAt).to.equal(400);
  });

  it("names the tokens a reading needs prices for, in lower case", () => {
    expect(readingTokens(amm)).to.deep.equal([T0, T1.toLowerCase()]);
    expect(readingTokens(lending)).to.deep.equal([T0]);
  });
});
