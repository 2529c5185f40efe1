import { expect } from "chai";
import { DEFAULT_TRADING, DEMO_CHAINS, demoPoolSpecs, type DemoTrading } from "../../src/demo/demoConfig";
import { MAX_TRADE, SESSIONS, SESSION_S, planDaySwaps } from "../../src/demo/planDaySwaps";
import { createPrng } from "../../src/demo/prng";
import { DemoChainError } from "../../src/errors/chain";

const DAY = 86_400;

/** Every demo chain's pairs' trading, as `simulateDay` hands it over (Uniswap V2 pairs first, then the forks'). */
const chainTrading = DEMO_CHAINS.map((chain) =>
  demoPoolSpecs(chain).flatMap((p) => (p.kind === "amm" ? [p.spec.trading ?? DEFAULT_TRADING] : [])),
);

describe("planDaySwaps", function () {
  it("gives every pair of every chain at least one swap on every day, inside the day, in time order", function () {
    for (const trading of chainTrading) {
      const rng = createPrng(11);
      for (let day = 0; day < 120; day++) {
        const from = 1_790_000_000 + day * DAY;
        const { swaps } = planDaySwaps({ trading, rng, from, to: from + DAY });
        for (let pair = 0; pair < trading.length; pair++) {
          const own = swaps.filter((s) => s.pair === pair);
          expect(own.length, `day ${day} pair ${pair}`).to.be.within(
            trading[pair].swapsPerDay[0],
            trading[pair].swapsPerDay[1],
          );
        }
        for (const [i, swap] of swaps.entries()) {
          expect(swap.at).to.be.greaterThan(i === 0 ? from : swaps[i - 1].at);
          expect(swap.at).to.be.lessThan(from + DAY);
        }
      }
    }
  });

  it("puts a day's swaps in 4–8 sessions of 20 minutes, at hours that vary from day to day", function () {
    const rng = createPrng(3);
    const hours = new Set<number>();
    for (let day = 0; day < 30; day++) {
      const from = day * DAY;
      const { swaps } = planDaySwaps({ trading: chainTrading[0], rng, from, to: from + DAY });
      for (const swap of swaps) hours.add(Math.floor((swap.at % DAY) / 3600));
      // Swaps closer than a session's length belong to one session: at most 8 groups, at least 1.
      let groups = 1;
      for (let i = 1; i < swaps.length; i++) if (swaps[i].at - swaps[i - 1].at > SESSION_S) groups++;
      expect(groups).to.be.within(1, SESSIONS[1]);
    }
    expect(hours.size).to.equal(24);
  });

  it("draws varied sizes: many small trades, a few large ones, busy and quiet days", function () {
    const trading: DemoTrading = { swapsPerDay: [4, 4], size: [0.001, 0.03] };
    const rng = createPrng(5);
    const sizes: number[] = [];
    const activity: number[] = [];
    for (let day = 0; day < 200; day++) {
      const plan = planDaySwaps({ trading: [trading], rng, from: day * DAY, to: (day + 1) * DAY });
      activity.push(plan.activity);
      for (const swap of plan.swaps) {
        expect(swap.size).to.be.within(0.001 * plan.activity, Math.min(MAX_TRADE, 0.03 * plan.activity));
        expect(swap.direction).to.be.within(0, 1);
        sizes.push(swap.size);
      }
    }
    sizes.sort((a, b) => a - b);
    const median = sizes[Math.floor(sizes.length / 2)];
    // Log-uniform: the median sits near the geometric middle (0.55 %), well below the mean.
    expect(median).to.be.within(0.003, 0.009);
    expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).to.be.greaterThan(median);
    expect(sizes[sizes.length - 1]).to.be.greaterThan(0.03);
    expect(activity.filter((a) => a > 1.5).length).to.be.within(10, 40);
    expect(activity.filter((a) => a < 0.7).length).to.be.within(10, 50);
  });

  it("is the same for the same seed", function () {
    const plan = (seed: number) =>
      planDaySwaps({ trading: chainTrading[1], rng: createPrng(seed), from: 1_000, to: 1_000 + DAY });
    expect(plan(9)).to.deep.equal(plan(9));
    expect(plan(9)).to.not.deep.equal(plan(10));
  });

  it("keeps swaps a second apart from the window's start when the window is too narrow for them", function () {
    const { swaps } = planDaySwaps({
      trading: [{ swapsPerDay: [5, 5], size: [0.01, 0.01] }],
      rng: createPrng(1),
      from: 100,
      to: 103,
    });
    expect(swaps.map((s) => s.at)).to.deep.equal([101, 102, 103, 104, 105]);
  });

  for (const [label, trading] of [
    ["no swaps on some days", { swapsPerDay: [0, 3], size: [0.001, 0.01] }],
    ["fractional swap counts", { swapsPerDay: [1.5, 3], size: [0.001, 0.01] }],
    ["a reversed size range", { swapsPerDay: [1, 3], size: [0.01, 0.001] }],
    ["trades above the largest trade", { swapsPerDay: [1, 3], size: [0.01, 0.2] }],
  ] as const) {
    it(`throws DemoChainError for ${label}`, function () {
      expect(() => planDaySwaps({ trading: [trading], rng: createPrng(1), from: 0, to: DAY })).to.throw(DemoChainError);
    });
  }
});
