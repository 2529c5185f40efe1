import { expect } from "chai";
import fc from "fast-check";
import v2 from "../vectors/attestation-v2.json";
import {
  AttestationNotObjectError,
  InvalidPoolAddressError,
  TypedAttestationRangeError,
} from "../../src/errors/attestation";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { fromTypedAttestation, type TypedAttestationInput } from "../../src/lib/fromTypedAttestation";
import { toTypedAttestation } from "../../src/lib/toTypedAttestation";
import type { AttestationFields } from "../../src/lib/types";

const message: TypedAttestationInput = {
  chainId: "1",
  pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
  confidence: "85",
  horizonDays: "30",
  issuedAt: "1764547200",
  expiresAt: "1767225600",
};

describe("fromTypedAttestation", () => {
  it("converts the published message (decimal strings) back to v1 fields", () => {
    expect(fromTypedAttestation({ message })).to.deep.equal({
      chainId: 1,
      confidence: 0.85,
      expiry: 1767225600,
      horizon: 30,
      issuedAt: 1764547200,
      pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
    });
  });

  it("round-trips every vector: v1 -> v2 -> v1 gives the same canonical message", () => {
    for (const c of v2.cases) {
      const attestation = c.attestation as AttestationFields;
      const back = fromTypedAttestation({ message: c.message });
      expect(createAttestationMessage({ attestation: back }), c.id).to.equal(createAttestationMessage({ attestation }));
    }
  });

  it("round-trips every confidence in hundredths (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), fc.constantFrom<"n" | "s" | "b">("n", "s", "b"), (k, form) => {
        const confidence = form === "n" ? k : form === "s" ? String(k) : BigInt(k);
        const fields = fromTypedAttestation({ message: { ...message, confidence } });
        expect(toTypedAttestation({ attestation: fields }).confidence).to.equal(k);
      }),
      { numRuns: 3000 },
    );
  });

  it("rejects values outside their Solidity type or outside v1's safe integers", () => {
    const bad: [keyof TypedAttestationInput, unknown][] = [
      ["confidence", 65536],
      ["confidence", -1],
      ["horizonDays", 2n ** 32n],
      ["issuedAt", 2n ** 64n],
      ["expiresAt", "18446744073709551615"],
      ["chainId", 2n ** 53n],
      ["chainId", "0x1"],
      ["chainId", "01"],
      ["chainId", 1.5],
      ["chainId", -0],
      ["horizonDays", -0],
      ["confidence", null],
    ];
    for (const [field, value] of bad)
      expect(
        () => fromTypedAttestation({ message: { ...message, [field]: value } as TypedAttestationInput }),
        `${field}=${String(value)}`,
      )
        .to.throw(TypedAttestationRangeError)
        .with.property("field", field);
    expect(() => fromTypedAttestation({ message: { ...message, pool: "0x12" } })).to.throw(InvalidPoolAddressError);
    expect(() => fromTypedAttestation({ message: null as unknown as TypedAttestationInput })).to.throw(
      AttestationNotObjectError,
    );
  });
});
