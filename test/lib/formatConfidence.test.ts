import { expect } from "chai";
import fc from "fast-check";
import { InvalidConfidenceError } from "../../src/errors/attestation";
import { formatConfidence } from "../../src/lib/formatConfidence";

const text = (confidence: number) => formatConfidence({ confidence }).text;

describe("formatConfidence", () => {
  it("renders the examples of docs/library.md#confidence", () => {
    expect(text(0.855)).to.equal("0.86");
    expect(text(1.005)).to.equal("1.01");
    expect(text(0.1 + 0.2)).to.equal("0.30");
    expect(text(1e-7)).to.equal("0.00");
    expect(text(-0)).to.equal("0.00");
  });

  it("differs from binary toFixed where the double lies below the written tie", () => {
    expect((0.855).toFixed(2)).to.equal("0.85");
    expect(text(0.855)).to.equal("0.86");
    expect((1.005).toFixed(2)).to.equal("1.00");
    expect(text(1.005)).to.equal("1.01");
  });

  it("prints exactly two fraction digits and never an exponent", () => {
    expect(text(0)).to.equal("0.00");
    expect(text(1)).to.equal("1.00");
    expect(text(0.5)).to.equal("0.50");
    expect(text(0.85)).to.equal("0.85");
    expect(text(0.995)).to.equal("1.00");
    expect(text(9.995)).to.equal("10.00");
    expect(text(0.994999)).to.equal("0.99");
    expect(text(0.005)).to.equal("0.01");
    expect(text(0.0049)).to.equal("0.00");
    expect(text(5e-324)).to.equal("0.00");
    expect(text(123.456)).to.equal("123.46");
    expect(text(1e21)).to.equal("1000000000000000000000.00");
    expect(text(1.5e-3)).to.equal("0.00");
    expect(text(5e-3)).to.equal("0.01");
  });

  it("returns the integer in hundredths", () => {
    expect(formatConfidence({ confidence: 0.855 }).hundredths).to.equal(86n);
    expect(formatConfidence({ confidence: 0 }).hundredths).to.equal(0n);
    expect(formatConfidence({ confidence: 655.35 }).hundredths).to.equal(65535n);
  });

  it("rejects negative, NaN, infinite and non-number values", () => {
    for (const bad of [-0.01, -1, NaN, Infinity, -Infinity])
      expect(() => formatConfidence({ confidence: bad }), String(bad))
        .to.throw(InvalidConfidenceError)
        .with.property("field", "confidence");
    for (const bad of ["0.85", null, true, 85n, {}, undefined])
      expect(() => formatConfidence({ confidence: bad as unknown as number }), String(bad)).to.throw(
        InvalidConfidenceError,
      );
  });

  it("renders every k/100 as k hundredths (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (k) => {
        const { text: t, hundredths } = formatConfidence({ confidence: k / 100 });
        expect(hundredths).to.equal(BigInt(k));
        expect(t).to.equal(`${Math.floor(k / 100)}.${String(k % 100).padStart(2, "0")}`);
      }),
      { numRuns: 2000 },
    );
  });

  it("rounds every written three-digit tie away from zero (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999 }), (k) => {
        // x is written k.5 hundredths, e.g. 0.855; its double may sit on either side of the tie.
        const x = Number(`${Math.floor(k / 100)}.${String(k % 100).padStart(2, "0")}5`);
        expect(formatConfidence({ confidence: x }).hundredths).to.equal(BigInt(k + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("stays within half a hundredth of the value (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (x) => {
        const { text: t } = formatConfidence({ confidence: x });
        expect(t).to.match(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
        expect(Math.abs(Number(t) - x)).to.be.at.most(0.005 + 1e-9 * Math.max(1, x));
      }),
      { numRuns: 2000 },
    );
  });
});
