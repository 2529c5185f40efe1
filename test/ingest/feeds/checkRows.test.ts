import { expect } from "chai";
import { z } from "zod";
import {
  addCounts,
  checkRows,
  refuseConflicts,
  timestampProblem,
  unixSeconds,
  usdAmount,
  usdPrice,
} from "../../../src/ingest/feeds/checkRows";
import { defillamaPoolSchema } from "../../../src/ingest/feeds/defillamaYields";
import { MAX_REPORT_REASONS } from "../../../src/storage/ingestRuns";

const row = z.object({ id: z.string(), tvlUsd: usdAmount, at: unixSeconds });
const NOW = Math.floor(Date.now() / 1000);

describe("checkRows: one feed answer, row by row", () => {
  it("skips a row of the wrong shape and counts it with its path, keeping the others in order", () => {
    const result = checkRows({
      items: [
        { id: "a", tvlUsd: 1, at: NOW },
        { id: "b", tvlUsd: null, at: NOW },
        { id: "c", tvlUsd: 2, at: NOW },
      ],
      path: "data",
      schema: row,
    });
    expect(result.rows.map((r) => r.id)).to.deep.equal(["a", "c"]);
    expect(result).to.deep.include({ rejectedRows: 1, conflicts: 0 });
    expect(result.reasons).to.deep.equal(["data[1].tvlUsd: Expected number, received null"]);
  });

  it("bounds USD amounts: not finite, negative, above 1e13, positive below 1e-6; 0 and 1e13 kept", () => {
    const values = [Infinity, -1, 1e308, 1e13 + 1e4, 1e-300, 5e-7, 0, 1e-6, 1e13];
    const result = checkRows({
      items: values.map((tvlUsd, i) => ({ id: String(i), tvlUsd, at: NOW })),
      path: "data",
      schema: row,
    });
    expect(result.rows.map((r) => r.tvlUsd)).to.deep.equal([0, 1e-6, 1e13]);
    expect(result.rejectedRows).to.equal(6);
    expect(result.reasons).to.deep.equal([
      "data[0].tvlUsd: Infinity is not finite",
      "data[1].tvlUsd: -1 is negative",
      "data[2].tvlUsd: 1e+308 above 1e13",
      "data[3].tvlUsd: 10000000010000 above 1e13",
      "data[4].tvlUsd: 1e-300 below 1e-6 (and not 0)",
    ]);
    expect(result.reasons).to.have.length(MAX_REPORT_REASONS);
  });

  it("does not bound a price below: a token can be worth 1e-9 USD", () => {
    expect(usdPrice.safeParse(1e-9).success).to.equal(true);
    expect(usdPrice.safeParse(1e14).success).to.equal(false);
    expect(usdPrice.safeParse(-1).success).to.equal(false);
  });

  it("takes timestamps as Unix seconds in [2015-01-01, now + 5 years]: milliseconds refused, never guessed", () => {
    expect(timestampProblem(1_420_070_400)).to.equal(undefined);
    expect(timestampProblem(NOW + 4 * 365 * 86_400)).to.equal(undefined);
    expect(timestampProblem(1_420_070_399)).to.match(/not Unix seconds/);
    expect(timestampProblem(NOW * 1000)).to.match(/milliseconds are refused/);
    expect(timestampProblem(NOW + 6 * 365 * 86_400)).to.match(/not Unix seconds/);
    expect(timestampProblem(NOW + 0.5)).to.match(/not Unix seconds/);
    expect(unixSeconds.safeParse(NOW).success).to.equal(true);
  });

  it("refuses every copy of a key answered with different values, keeps one of identical copies", () => {
    const items = [
      { id: "a", tvlUsd: 1, at: NOW },
      { id: "A", tvlUsd: 2, at: NOW },
      { id: "b", tvlUsd: 3, at: NOW },
      { id: "b", tvlUsd: 3, at: NOW },
      { id: "c", tvlUsd: 4, at: NOW },
    ];
    const result = checkRows({ items, path: "data", schema: row, key: (r) => r.id.toLowerCase(), keyName: "pool" });
    expect(result.rows.map((r) => r.id)).to.deep.equal(["b", "c"]);
    expect(result).to.deep.include({ rejectedRows: 0, conflicts: 1, conflictKeys: ["a"] });
    expect(result.reasons).to.deep.equal(['data: pool "a" answered twice with different values']);
  });

  it("refuseConflicts compares what it is told to", () => {
    const rows = [
      { k: "x", v: 1, seen: 1 },
      { k: "x", v: 1, seen: 2 },
    ];
    expect(refuseConflicts(rows, (r) => r.k).conflictKeys).to.deep.equal(["x"]);
    expect(
      refuseConflicts(
        rows,
        (r) => r.k,
        (r) => String(r.v),
      ).rows,
    ).to.deep.equal([rows[0]]);
  });

  it("adds the counts of several answers, the first reasons kept", () => {
    const one = { rejectedRows: 2, conflicts: 1, reasons: ["a", "b", "c"] };
    expect(addCounts(one, one)).to.deep.equal({ rejectedRows: 4, conflicts: 2, reasons: ["a", "b", "c", "a", "b"] });
  });

  it("checks 20,000 /pools rows quickly (the real /pools has about 19,000)", function () {
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      pool: `0000${i}-5b6e-4f70-8a91-b2c3d4e5f601`,
      chain: "Ethereum",
      project: "uniswap-v3",
      symbol: "USDC-WETH",
      tvlUsd: 1_000_000 + i,
      apy: 4.2,
      apyBase: 3.1,
      apyReward: 1.1,
      rewardTokens: ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"],
      underlyingTokens: ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"],
      poolMeta: null,
      volumeUsd1d: 12345.6,
      stablecoin: false,
      ilRisk: "yes",
      exposure: "multi",
    }));
    items[123] = { ...items[123], tvlUsd: null as unknown as number };
    const started = performance.now();
    const result = checkRows({
      items,
      path: "data",
      schema: defillamaPoolSchema,
      key: (p) => p.pool.toLowerCase(),
      keyName: "pool",
    });
    const ms = performance.now() - started;
    console.log(`      checkRows: 20,000 /pools rows in ${ms.toFixed(0)} ms`);
    expect(result.rows).to.have.length(19_999);
    expect(result.rejectedRows).to.equal(1);
    expect(ms).to.be.below(2000);
  });
});
