import { expect } from "chai";
import fc from "fast-check";
import { PairMathError } from "../../src/errors/chain";
import { getAmountIn, getAmountOut, getExitCapacity, getSpotPrice, toUnits } from "../../src/model/pairMath";

const reserve = fc.bigInt({ min: 1_000n, max: 10n ** 30n });

describe("pairMath", function () {
  describe("getAmountOut", function () {
    it("applies the 0.3 % fee and rounds down like UniswapV2Library", function () {
      // 1000·997·2e6 / (1e6·1000 + 1000·997) = 1992.01… → 1992
      expect(getAmountOut({ amountIn: 1_000n, reserveIn: 1_000_000n, reserveOut: 2_000_000n })).to.equal(1992n);
    });

    it("never lets x·y fall below k (fee-adjusted), for any input", function () {
      fc.assert(
        fc.property(reserve, reserve, fc.bigInt({ min: 1n, max: 10n ** 30n }), (x, y, dx) => {
          const dy = getAmountOut({ amountIn: dx, reserveIn: x, reserveOut: y });
          // The pair's own check: (x·1000 + dx·997)·(y − dy)·1000 ≥ x·y·1000².
          expect((x * 1000n + dx * 997n) * (y - dy) * 1000n >= x * y * 1_000_000n).to.equal(true);
          // And one more unit out would break it: getAmountOut is the largest accepted output.
          expect((x * 1000n + dx * 997n) * (y - dy - 1n) * 1000n >= x * y * 1_000_000n).to.equal(false);
        }),
      );
    });
  });

  describe("getAmountIn", function () {
    it("is the smallest input that buys the output", function () {
      fc.assert(
        fc.property(reserve, reserve, fc.double({ min: 0.000001, max: 0.9, noNaN: true }), (x, y, f) => {
          const out = (y * BigInt(Math.floor(f * 1e9))) / 1_000_000_000n;
          fc.pre(out > 0n);
          const dx = getAmountIn({ amountOut: out, reserveIn: x, reserveOut: y });
          expect(getAmountOut({ amountIn: dx, reserveIn: x, reserveOut: y }) >= out).to.equal(true);
        }),
      );
    });

    it("refuses an output equal to the whole reserve", function () {
      expect(() => getAmountIn({ amountOut: 10n, reserveIn: 10n, reserveOut: 10n })).to.throw(PairMathError);
    });
  });

  describe("getExitCapacity", function () {
    it("is zero at or below the fee (30 bps)", function () {
      expect(getExitCapacity({ reserveIn: 10n ** 24n, reserveOut: 10n ** 12n, maxSlippageBps: 30 })).to.deep.equal({
        amountIn: 0n,
        amountOut: 0n,
      });
      expect(getExitCapacity({ reserveIn: 10n ** 24n, reserveOut: 10n ** 12n, maxSlippageBps: 0 }).amountIn).to.equal(
        0n,
      );
    });

    it("is the largest input whose average price stays within the slippage of spot", function () {
      fc.assert(
        fc.property(reserve, reserve, fc.integer({ min: 31, max: 9_999 }), (x, y, s) => {
          const { amountIn: dx } = getExitCapacity({ reserveIn: x, reserveOut: y, maxSlippageBps: s });
          const S = BigInt(s);
          // Exact (unrounded) average price / spot = 997x / (1000x + 997dx) ≥ 1 − s/10⁴.
          const within = (d: bigint) => 997n * x * 10_000n >= (10_000n - S) * (1000n * x + 997n * d);
          expect(within(dx)).to.equal(true);
          expect(within(dx + 1n)).to.equal(false);
        }),
      );
    });

    it("matches the closed form for 2 % on a 1,000 WETH / 3,000,000 USDC pair", function () {
      const x = 1000n * 10n ** 18n;
      const { amountIn, amountOut } = getExitCapacity({
        reserveIn: x,
        reserveOut: 3_000_000n * 10n ** 6n,
        maxSlippageBps: 200,
      });
      // dx = x·(997·10⁴ − 1000·9800) / (997·9800) = x·170000 / 9770600
      expect(amountIn).to.equal((x * 170_000n) / 9_770_600n);
      expect(amountOut).to.equal(getAmountOut({ amountIn, reserveIn: x, reserveOut: 3_000_000n * 10n ** 6n }));
    });

    for (const s of [-1, 10_000, 1.5]) {
      it(`throws PairMathError for maxSlippageBps ${s}`, function () {
        expect(() => getExitCapacity({ reserveIn: 1n, reserveOut: 1n, maxSlippageBps: s })).to.throw(PairMathError);
      });
    }
  });

  describe("getSpotPrice and toUnits", function () {
    it("prices one WETH (18 decimals) against USDC (6 decimals)", function () {
      expect(
        getSpotPrice({
          reserveBase: 1000n * 10n ** 18n,
          decimalsBase: 18,
          reserveQuote: 3_000_000n * 10n ** 6n,
          decimalsQuote: 6,
        }),
      ).to.equal(3000);
    });

    it("converts base units to whole tokens", function () {
      expect(toUnits(1_234_567n, 6)).to.equal(1.234567);
      expect(toUnits(10n ** 30n, 18)).to.equal(1e12);
    });
  });

  describe("validations", function () {
    it("throws PairMathError for zero or negative reserves and negative inputs", function () {
      expect(() => getAmountOut({ amountIn: 1n, reserveIn: 0n, reserveOut: 1n })).to.throw(PairMathError);
      expect(() => getAmountOut({ amountIn: -1n, reserveIn: 1n, reserveOut: 1n })).to.throw(PairMathError);
      expect(() => getExitCapacity({ reserveIn: 1n, reserveOut: -5n, maxSlippageBps: 100 })).to.throw(PairMathError);
      expect(() => toUnits(1n, -1)).to.throw(PairMathError);
    });
  });
});
