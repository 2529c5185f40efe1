import { expect } from "chai";
import { type Hex, recoverMessageAddress } from "viem";
import vectors from "../vectors/attestation-v1.json";
import { InvalidAttestationSignatureError, SignatureRecoveryError } from "../../src/errors/attestation";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { recoverAttestationSigner } from "../../src/lib/recoverAttestationSigner";
import type { Attestation } from "../../src/lib/types";

describe("recoverAttestationSigner", () => {
  it("recovers the vector signers (EIP-55), also for tampered fields", () => {
    for (const c of vectors.cases) {
      if (c.expected.recovered === null) continue;
      const signer = recoverAttestationSigner({ attestation: c.attestation as Attestation });
      expect(signer.toLowerCase(), c.id).to.equal(c.expected.recovered);
      expect(signer).to.match(/^0x[0-9a-fA-F]{40}$/);
    }
    expect(recoverAttestationSigner({ attestation: vectors.cases[0].attestation as Attestation })).to.equal(
      vectors.attester.address,
    );
  });

  it("agrees with viem recoverMessageAddress over the canonical message", async () => {
    for (const c of vectors.cases) {
      if (c.expected.recovered === null) continue;
      const attestation = c.attestation as Attestation;
      const viaViem = await recoverMessageAddress({
        message: createAttestationMessage({ attestation }),
        signature: attestation.signature as Hex,
      });
      expect(recoverAttestationSigner({ attestation }), c.id).to.equal(viaViem);
    }
  });

  it("takes an explicit signature over attestation.signature", () => {
    const attestation = vectors.cases[0].attestation as Attestation;
    const { signature, ...unsigned } = attestation;
    expect(recoverAttestationSigner({ attestation: unsigned, signature })).to.equal(vectors.attester.address);
  });

  it("throws InvalidAttestationSignatureError for high-s (which viem alone would accept)", async () => {
    const c = vectors.cases.find((x) => x.id === "S04-high-s")!;
    const attestation = c.attestation as Attestation;
    // viem recovers the true signer from the malleated signature...
    const viaViem = await recoverMessageAddress({
      message: createAttestationMessage({ attestation }),
      signature: attestation.signature as Hex,
    });
    expect(viaViem).to.equal(vectors.attester.address);
    // ...the strict recovery refuses it.
    expect(() => recoverAttestationSigner({ attestation })).to.throw(InvalidAttestationSignatureError, /high-s/);
  });

  it("throws SignatureRecoveryError when r is not a curve point's x", () => {
    const attestation = vectors.cases[0].attestation as Attestation;
    // x = 5 has no point on secp256k1 (5^3 + 7 = 132 is not a square mod p).
    const signature = `0x${"0".repeat(63)}5${"0".repeat(63)}11b`;
    expect(() => recoverAttestationSigner({ attestation, signature })).to.throw(SignatureRecoveryError);
    try {
      recoverAttestationSigner({ attestation, signature });
    } catch (error) {
      const e = error as SignatureRecoveryError;
      expect(e.code).to.equal("ATTESTATION_SIGNATURE_UNRECOVERABLE");
      expect(e.shortMessage).to.equal("No signer can be recovered from this signature.");
      // The underlying @noble/curves error is kept as the cause and summarized in `details`.
      expect(e.walk()).to.equal(e.cause);
      expect(e.details).to.equal((e.cause as Error).message);
      expect(e.message).to.contain(`Details: ${e.details}`);
      expect(e.message).to.contain("Docs: docs/library.md#signature");
    }
  });
});
