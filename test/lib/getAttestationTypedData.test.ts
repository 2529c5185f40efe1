import { expect } from "chai";
import v2 from "../vectors/attestation-v2.json";
import { InvalidExpectedAddressError, TypedAttestationRangeError } from "../../src/errors/attestation";
import { getAttestationTypedData } from "../../src/lib/getAttestationTypedData";
import type { AttestationFields, AttestationRegistry } from "../../src/lib/types";

const c0 = v2.cases[0];

describe("getAttestationTypedData", () => {
  it("uses the AttestationRegistry domain with the registry's chain and address", () => {
    const td = getAttestationTypedData({ attestation: c0.attestation, registry: c0.registry });
    expect(td.domain).to.deep.equal({
      name: "AttestationRegistry",
      version: "1",
      chainId: 31337n,
      verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    });
    expect(td.primaryType).to.equal("Attestation");
  });

  it("declares the contract's type, without EIP712Domain", () => {
    const td = getAttestationTypedData({ attestation: c0.attestation, registry: c0.registry });
    expect(Object.keys(td.types)).to.deep.equal(["Attestation"]);
    const type = `Attestation(${td.types.Attestation.map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(type).to.equal(v2.type);
  });

  it("builds the message of every vector (the pool's chain, not the registry's)", () => {
    for (const c of v2.cases) {
      const { message } = getAttestationTypedData({
        attestation: c.attestation as AttestationFields,
        registry: c.registry,
      });
      expect(
        {
          chainId: message.chainId.toString(),
          pool: message.pool,
          confidence: String(message.confidence),
          horizonDays: String(message.horizonDays),
          issuedAt: message.issuedAt.toString(),
          expiresAt: message.expiresAt.toString(),
        },
        c.id,
      ).to.deep.equal(c.message);
    }
  });

  it("accepts the registry chain as number, bigint or decimal string and the address in any case", () => {
    for (const registry of [
      { chainId: 31337, address: c0.registry.address.toLowerCase() },
      { chainId: 31337n, address: c0.registry.address.toUpperCase().replace("0X", "0x") },
      { chainId: "31337", address: c0.registry.address },
    ])
      expect(getAttestationTypedData({ attestation: c0.attestation, registry }).domain).to.deep.include({
        chainId: 31337n,
        verifyingContract: c0.registry.address,
      });
  });

  it("rejects a malformed registry", () => {
    for (const registry of [
      null,
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      { chainId: 1, address: "0x1234" },
      { chainId: 1 },
    ])
      expect(() =>
        getAttestationTypedData({ attestation: c0.attestation, registry: registry as unknown as AttestationRegistry }),
      ).to.throw(InvalidExpectedAddressError);
    for (const chainId of [-1, 1.5, "0x1", "01", undefined])
      expect(() =>
        getAttestationTypedData({
          attestation: c0.attestation,
          registry: { chainId: chainId as number, address: c0.registry.address },
        }),
      ).to.throw(TypedAttestationRangeError);
  });
});
