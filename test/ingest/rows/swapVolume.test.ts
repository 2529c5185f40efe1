import { expect } from "chai";
import {
  coveredDays,
  pairPricesFromState,
  swapBuckets,
  swapUsd,
  type PairPrices,
  type SwapEvent,
} from "../../../src/ingest/rows/swapVolume";

const H = Date.UTC(2026, 9, 1, 23) / 1000; // 23:00 UTC
const swap = (hour: number, amounts: Partial<SwapEvent>): SwapEvent => ({
  block: 1n,
  logIndex: 0,
  hour,
  amount0In: 0n,
  amount1In: 0n,
  amount0Out: 0n,
  amount1Out: 0n,
  ...amounts,
});
const prices: PairPrices = { decimals0: 6, decimals1: 18, price0Usd: 1, price1Usd: 2000, pricedAt: null };

describe("swap volume rows", () => {
  it("values a swap by its input side at the pass's prices", () => {
    expect(swapUsd(swap(H, { amount0In: 1_500_000_000n, amount1Out: 10n ** 17n }), prices)).to.equal(1500);
    expect(swapUsd(swap(H, { amount1In: 5n * 10n ** 17n, amount0Out: 999_000_000n }), prices)).to.equal(1000);
  });

  it("values a swap by its priced token's leg when only one token has a price, and not at all with none", () => {
    const only0 = { ...prices, price1Usd: null };
    expect(swapUsd(swap(H, { amount1In: 10n ** 18n, amount0Out: 1_990_000_000n }), only0)).to.equal(1990);
    const only1 = { ...prices, price0Usd: null };
    expect(swapUsd(swap(H, { amount0In: 2_000_000_000n, amount1Out: 10n ** 18n }), only1)).to.equal(2000);
    expect(swapUsd(swap(H, { amount0In: 1n }), { ...prices, price0Usd: null, price1Usd: null })).to.equal(null);
  });

  it("sums swaps by UTC hour and by UTC day", () => {
    const buckets = swapBuckets({
      swaps: [
        swap(H, { amount0In: 1_000_000n }),
        swap(H, { amount0In: 2_000_000n }),
        swap(H + 3600, { amount0In: 4_000_000n }),
      ],
      prices,
    })!;
    expect([...buckets.hourly]).to.deep.equal([
      [H, { volumeUsd: 3, swaps: 2 }],
      [H + 3600, { volumeUsd: 4, swaps: 1 }],
    ]);
    expect([...buckets.daily]).to.deep.equal([
      ["2026-10-01", { volumeUsd: 3, swaps: 2 }],
      ["2026-10-02", { volumeUsd: 4, swaps: 1 }],
    ]);
    expect(swapBuckets({ swaps: [], prices: { ...prices, price0Usd: null, price1Usd: null } })).to.equal(null);
  });

  it("lists the UTC days a read covered, from the day after the last second read", () => {
    expect(coveredDays({ afterTime: H, throughTime: H + 26 * 3600 })).to.deep.equal([
      "2026-10-01",
      "2026-10-02",
      "2026-10-03",
    ]);
    const midnight = Date.UTC(2026, 9, 2) / 1000;
    expect(coveredDays({ afterTime: midnight - 1, throughTime: midnight + 60 })).to.deep.equal(["2026-10-02"]);
    expect(coveredDays({ afterTime: midnight + 60, throughTime: midnight + 60 })).to.deep.equal(["2026-10-02"]);
  });

  it("reads the prices the pass valued depth with from the stored state, with the oldest quote's time", () => {
    expect(pairPricesFromState({ decimals0: 6, decimals1: 18, price0Usd: 1, price1Usd: 2000 })).to.deep.equal(prices);
    expect(
      pairPricesFromState({ decimals0: 6, decimals1: 18, price0Usd: 1, price0At: 50, price1Usd: 2, price1At: 40 }),
    ).to.deep.include({ pricedAt: 40 });
    expect(pairPricesFromState({ decimals0: 6, decimals1: 18 })).to.deep.include({ price0Usd: null, price1Usd: null });
    expect(pairPricesFromState({ reserve0: "1" })).to.equal(null);
  });
});
