import { expect } from "chai";
import { InvalidIntegerFieldError } from "../../src/errors/attestation";
import { normalizeAttestation } from "../../src/lib/normalizeAttestation";

describe("normalizeAttestation", () => {
  it("returns the signed values in their signed form", () => {
    expect(
      normalizeAttestation({
        attestation: {
          chainId: "8453",
          confidence: 0.855,
          expiry: 1767225600,
          horizon: "30",
          issuedAt: 1764547200,
          pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5640",
          symbol: "ignored",
        },
      }),
    ).to.deep.equal({
      chainId: 8453,
      confidence: "0.86",
      confidenceHundredths: 86n,
      expiresAt: 1767225600,
      horizonDays: 30,
      issuedAt: 1764547200,
      pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
    });
  });

  it("reports the first bad field in canonical order", () => {
    expect(() =>
      normalizeAttestation({ attestation: { chainId: "x", confidence: 0.5, expiry: "y", horizon: 1, issuedAt: 1 } }),
    )
      .to.throw(InvalidIntegerFieldError)
      .with.property("field", "chainId");
  });
});
