import { expect } from "chai";
import { hashMessage } from "viem";
import vectors from "../vectors/attestation-v1.json";
import { hashAttestation } from "../../src/lib/hashAttestation";
import type { Attestation } from "../../src/lib/types";

describe("hashAttestation", () => {
  it("is keccak256 of the EIP-191 prefix, the byte length and the canonical message", () => {
    for (const c of vectors.cases) {
      if (c.expected.canonical === null) continue;
      expect(hashAttestation({ attestation: c.attestation as Attestation }), c.id).to.equal(
        hashMessage(c.expected.canonical),
      );
    }
  });
});
