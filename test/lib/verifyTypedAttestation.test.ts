import { expect } from "chai";
import v2 from "../vectors/attestation-v2.json";
import v1 from "../vectors/attestation-v1.json";
import { MissingAttestationFieldError } from "../../src/errors/attestation";
import { malleate } from "../vectors/signatures";
import type { Attestation } from "../../src/lib/types";
import { verifyTypedAttestation } from "../../src/lib/verifyTypedAttestation";

const c = v2.cases[0];
const attestation = c.attestation as Attestation;
const address = v2.attester.address;
const at = (seconds: number) => new Date(seconds * 1000);

describe("verifyTypedAttestation", () => {
  it("accepts every pinned signature for its registry", () => {
    for (const x of v2.cases) {
      const result = verifyTypedAttestation({
        attestation: x.attestation as Attestation,
        registry: x.registry,
        address,
        signature: x.signature,
        time: at(0),
      });
      expect(result, x.id).to.deep.equal({ valid: true, attester: address, expired: false, digest: x.digest });
    }
  });

  it("reads eip712.signature when no signature is given", () => {
    const published = { ...attestation, eip712: { signature: c.signature } } as unknown as Attestation;
    expect(
      verifyTypedAttestation({ attestation: published, registry: c.registry, address, time: at(0) }).valid,
    ).to.equal(true);
    expect(() => verifyTypedAttestation({ attestation, registry: c.registry, address }))
      .to.throw(MissingAttestationFieldError)
      .with.property("field", "eip712.signature");
  });

  it("is invalid for another registry, another expected signer, a changed field or a high-s twin", () => {
    const base = { attestation, registry: c.registry, address, signature: c.signature, time: at(0) };
    expect(verifyTypedAttestation({ ...base, registry: { ...c.registry, chainId: 1 } }).valid).to.equal(false);
    expect(verifyTypedAttestation({ ...base, address: v1.impostor.address }).valid).to.equal(false);
    expect(verifyTypedAttestation({ ...base, attestation: { ...attestation, horizon: 31 } }).valid).to.equal(false);
    // A v1 confidence with the same hundredths signs the same v2 message.
    expect(verifyTypedAttestation({ ...base, attestation: { ...attestation, confidence: 0.849999 } }).valid).to.equal(
      true,
    );
    expect(verifyTypedAttestation({ ...base, signature: malleate(c.signature) })).to.include({
      valid: false,
      attester: null,
    });
    // The v1 signature does not verify as v2.
    expect(verifyTypedAttestation({ ...base, signature: v1.cases[0].attestation.signature }).valid).to.equal(false);
  });

  it("uses the off-chain expiry rule: expired when expiresAt <= now", () => {
    const base = { attestation, registry: c.registry, address, signature: c.signature };
    const expiry = attestation.expiry as number;
    expect(verifyTypedAttestation({ ...base, time: at(expiry - 1) }).expired).to.equal(false);
    expect(verifyTypedAttestation({ ...base, time: at(expiry) })).to.include({ valid: true, expired: true });
  });
});
