import { expect } from "chai";
import v2 from "../vectors/attestation-v2.json";
import { InvalidAttestationSignatureError } from "../../src/errors/attestation";
import { recoverTypedAttestationSigner } from "../../src/lib/recoverTypedAttestationSigner";
import { malleate } from "../vectors/signatures";
import type { AttestationFields } from "../../src/lib/types";

describe("recoverTypedAttestationSigner", () => {
  it("recovers the attester of every pinned signature (EIP-55)", () => {
    for (const c of v2.cases)
      expect(
        recoverTypedAttestationSigner({
          attestation: c.attestation as AttestationFields,
          registry: c.registry,
          signature: c.signature,
        }),
        c.id,
      ).to.equal(v2.attester.address);
  });

  it("applies the strict rules: high-s and 64-byte signatures are rejected", () => {
    const c = v2.cases[0];
    const attestation = c.attestation as AttestationFields;
    expect(() =>
      recoverTypedAttestationSigner({ attestation, registry: c.registry, signature: malleate(c.signature) }),
    ).to.throw(InvalidAttestationSignatureError, /high-s/);
    expect(() =>
      recoverTypedAttestationSigner({ attestation, registry: c.registry, signature: c.signature.slice(0, 130) }),
    ).to.throw(InvalidAttestationSignatureError);
  });
});
