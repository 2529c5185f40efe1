import { expect } from "chai";
import type { Hex } from "viem";
import v2 from "../vectors/attestation-v2.json";
import { InvalidPrivateKeyError } from "../../src/errors/attestation";
import { parseAttestationSignature } from "../../src/lib/parseAttestationSignature";
import { signTypedAttestation } from "../../src/lib/signTypedAttestation";
import type { AttestationFields } from "../../src/lib/types";

const privateKey = v2.attester.privateKey as Hex;

describe("signTypedAttestation", () => {
  it("reproduces the pinned signatures (RFC 6979: viem and ethers agree byte for byte)", async () => {
    for (const c of v2.cases) {
      const signature = await signTypedAttestation({
        attestation: c.attestation as AttestationFields,
        registry: c.registry,
        privateKey,
      });
      expect(signature, c.id).to.equal(c.signature);
      expect([27, 28]).to.include(parseAttestationSignature({ signature }).v);
    }
  });

  it("rejects a malformed key", async () => {
    const c = v2.cases[0];
    let error: unknown;
    try {
      await signTypedAttestation({ attestation: c.attestation, registry: c.registry, privateKey: "0x01" });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InvalidPrivateKeyError);
  });
});
