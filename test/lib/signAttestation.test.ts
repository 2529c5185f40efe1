import { expect } from "chai";
import { type Hex, verifyMessage } from "viem";
import vectors from "../vectors/attestation-v1.json";
import { InvalidIntegerFieldError, InvalidPrivateKeyError } from "../../src/errors/attestation";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { parseAttestationSignature } from "../../src/lib/parseAttestationSignature";
import { signAttestation } from "../../src/lib/signAttestation";
import type { Attestation } from "../../src/lib/types";

const key = vectors.attester.privateKey as Hex;

describe("signAttestation", () => {
  it("reproduces the signature of every authentic vector (RFC 6979, deterministic)", async () => {
    for (const c of vectors.cases) {
      if (!c.expected.valid) continue;
      const attestation = c.attestation as Attestation;
      expect(await signAttestation({ attestation, privateKey: key }), c.id).to.equal(attestation.signature);
    }
  });

  it("is an EIP-191 personal_sign over the canonical message (viem verifyMessage agrees)", async () => {
    const attestation = vectors.cases[0].attestation as Attestation;
    const signature = await signAttestation({ attestation, privateKey: key });
    const message = createAttestationMessage({ attestation });
    expect(await verifyMessage({ address: vectors.attester.address as Hex, message, signature })).to.equal(true);
  });

  it("produces signatures that pass the strict parser (low-s, v 27/28)", async () => {
    for (let i = 0; i < 20; i++) {
      const attestation = { ...(vectors.cases[0].attestation as Attestation), horizon: i };
      const parsed = parseAttestationSignature({ signature: await signAttestation({ attestation, privateKey: key }) });
      expect([27, 28]).to.include(parsed.v);
    }
  });

  it("rejects malformed fields and keys without echoing the key", async () => {
    const attestation = vectors.cases[0].attestation as Attestation;
    let error: unknown;
    try {
      await signAttestation({ attestation: { ...attestation, expiry: "1e9" }, privateKey: key });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InvalidIntegerFieldError);
    for (const privateKey of ["0x1234", `0x${"0".repeat(64)}`, `0x${"f".repeat(64)}`, `0x${"g".repeat(64)}`]) {
      error = undefined;
      try {
        await signAttestation({ attestation, privateKey: privateKey as Hex });
      } catch (e) {
        error = e;
      }
      expect(error, privateKey).to.be.instanceOf(InvalidPrivateKeyError);
      expect((error as Error).message).not.to.contain(privateKey.slice(2));
    }
  });
});
