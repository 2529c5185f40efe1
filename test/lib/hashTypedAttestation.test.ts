import { expect } from "chai";
import v2 from "../vectors/attestation-v2.json";
import { hashTypedAttestation } from "../../src/lib/hashTypedAttestation";
import type { AttestationFields } from "../../src/lib/types";

describe("hashTypedAttestation", () => {
  it("equals the pinned EIP-712 digests (computed with ethers TypedDataEncoder)", () => {
    for (const c of v2.cases)
      expect(
        hashTypedAttestation({ attestation: c.attestation as AttestationFields, registry: c.registry }),
        c.id,
      ).to.equal(c.digest);
  });

  it("binds the registry's chain and address", () => {
    const c = v2.cases[0];
    const attestation = c.attestation as AttestationFields;
    const digest = hashTypedAttestation({ attestation, registry: c.registry });
    expect(hashTypedAttestation({ attestation, registry: { ...c.registry, chainId: 1 } })).to.not.equal(digest);
    expect(
      hashTypedAttestation({
        attestation,
        registry: { ...c.registry, address: "0x0000000000000000000000000000000000000001" },
      }),
    ).to.not.equal(digest);
  });
});
