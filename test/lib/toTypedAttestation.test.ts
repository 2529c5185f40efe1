import { expect } from "chai";
import {
  InvalidConfidenceError,
  InvalidIntegerFieldError,
  InvalidPoolAddressError,
  TypedAttestationRangeError,
} from "../../src/errors/attestation";
import { toTypedAttestation } from "../../src/lib/toTypedAttestation";
import type { AttestationFields } from "../../src/lib/types";

const base: AttestationFields = {
  chainId: 8453,
  confidence: 0.85,
  expiry: 1767225600,
  horizon: 30,
  issuedAt: 1764547200,
  pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5640",
};
const typed = (patch: Partial<Record<keyof AttestationFields, unknown>>) =>
  toTypedAttestation({ attestation: { ...base, ...patch } as AttestationFields });

describe("toTypedAttestation", () => {
  it("maps v1 fields to the v2 message", () => {
    expect(typed({})).to.deep.equal({
      chainId: 8453n,
      pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
      confidence: 85,
      horizonDays: 30,
      issuedAt: 1764547200n,
      expiresAt: 1767225600n,
    });
  });

  it("takes confidence in hundredths from the v1 two-digit rendering", () => {
    expect(typed({ confidence: 0.855 }).confidence).to.equal(86);
    expect(typed({ confidence: 1.005 }).confidence).to.equal(101);
    expect(typed({ confidence: 0.1 + 0.2 }).confidence).to.equal(30);
    expect(typed({ confidence: 1e-7 }).confidence).to.equal(0);
    expect(typed({ confidence: 655.35 }).confidence).to.equal(65535);
    expect(typed({ confidence: 655.354 }).confidence).to.equal(65535);
  });

  it("rejects values that do not fit the v2 types", () => {
    expect(() => typed({ confidence: 655.355 }))
      .to.throw(TypedAttestationRangeError)
      .with.property("field", "confidence");
    expect(() => typed({ confidence: 1000 })).to.throw(TypedAttestationRangeError);
    expect(() => typed({ horizon: 4294967296 }))
      .to.throw(TypedAttestationRangeError)
      .with.property("field", "horizon");
    expect(typed({ horizon: 4294967295 }).horizonDays).to.equal(4294967295);
    expect(typed({ expiry: Number.MAX_SAFE_INTEGER }).expiresAt).to.equal(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it("applies the v1 rules first", () => {
    expect(() => typed({ confidence: "0.85" })).to.throw(InvalidConfidenceError);
    expect(() => typed({ chainId: "0x2105" })).to.throw(InvalidIntegerFieldError);
    expect(() => typed({ pool: "0x88e6" })).to.throw(InvalidPoolAddressError);
  });
});
