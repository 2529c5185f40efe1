import { InvalidConfidenceError, type InvalidConfidenceErrorType } from "../errors/attestation";

export type FormatConfidenceParameters = {
  /** A finite, non-negative JSON number. */
  confidence: number;
};

/** The two-digit decimal string and the integer behind it, in hundredths. */
export type FormatConfidenceReturnType = { text: string; hundredths: bigint };

export type FormatConfidenceErrorType = InvalidConfidenceErrorType;

/**
 * Renders a confidence the way the v1 message signs it: the shortest round-trip decimal of the number (what
 * `String(x)` prints), rounded to hundredths with ties away from zero, printed with exactly two fraction digits
 * and never an exponent. Binary `toFixed` is never used (`(0.855).toFixed(2)` is `"0.85"`; this gives `"0.86"`).
 *
 * @param parameters - {@link FormatConfidenceParameters}
 * @returns The rendering and its value in hundredths. {@link FormatConfidenceReturnType}
 * @throws {InvalidConfidenceError} For a non-number, NaN, an infinity or a negative number.
 *
 * @example
 * import { formatConfidence } from "@attestation-registry/sdk";
 *
 * formatConfidence({ confidence: 0.855 }); // { text: "0.86", hundredths: 86n }
 * formatConfidence({ confidence: 1e-7 }); // { text: "0.00", hundredths: 0n }
 */
export function formatConfidence({ confidence }: FormatConfidenceParameters): FormatConfidenceReturnType {
  if (typeof confidence !== "number")
    throw new InvalidConfidenceError({
      value: confidence,
      reason: confidence === undefined ? "missing" : `must be a JSON number, not ${typeof confidence}`,
    });
  if (Number.isNaN(confidence)) throw new InvalidConfidenceError({ value: confidence, reason: "NaN is not a number" });
  if (!Number.isFinite(confidence)) throw new InvalidConfidenceError({ value: confidence, reason: "must be finite" });
  if (confidence < 0) throw new InvalidConfidenceError({ value: confidence, reason: "must not be negative" });

  // Shortest round-trip decimal: "0.855", "1e-7", "1.5e+21". (-0 prints "0".)
  const shortest = String(confidence);
  const e = shortest.indexOf("e");
  const mantissa = e === -1 ? shortest : shortest.slice(0, e);
  const exponent = e === -1 ? 0 : Number(shortest.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // value = 0.<digits> * 10^point, i.e. the decimal point sits after `point` digits.
  const point = (dot === -1 ? mantissa.length : dot) + exponent;
  // Digits kept: everything up to the second fraction digit.
  const keep = point + 2;
  let kept: string;
  let next: string;
  if (keep <= 0) {
    kept = "0";
    next = keep === 0 ? digits[0] : "0";
  } else if (keep >= digits.length) {
    kept = digits + "0".repeat(keep - digits.length);
    next = "0";
  } else {
    kept = digits.slice(0, keep);
    next = digits[keep];
  }
  // Ties away from zero: for a non-negative value, the first dropped digit decides.
  const hundredths = BigInt(kept) + (next >= "5" ? 1n : 0n);
  const padded = hundredths.toString().padStart(3, "0");
  return { text: `${padded.slice(0, -2)}.${padded.slice(-2)}`, hundredths };
}
