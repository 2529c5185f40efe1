import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import fc from "fast-check";
import { bytesToHex, getAddress } from "viem";

import { attestationDigest, signAttestation, ATTESTATION_TYPES, type AttestationStruct } from "../helpers/eip712";
import { deployRegistryFixture, ATTESTER_KEY } from "../helpers/registryFixture";

/** Fixed seed: the runs are random but reproducible. */
const SEED = 0x5eed712;

/** Any value of every field, over the full width of its EIP-712 type. */
const attestationArbitrary = (minExpiresAt = 0n): fc.Arbitrary<AttestationStruct> =>
  fc.record({
    chainId: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
    pool: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(bytesToHex(bytes))),
    confidence: fc.integer({ min: 0, max: 2 ** 16 - 1 }),
    horizonDays: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    issuedAt: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    expiresAt: fc.bigInt({ min: minExpiresAt, max: 2n ** 64n - 1n }),
  });

describe("AttestationRegistry digest parity (property)", function () {
  it("hashAttestation equals viem hashTypedData for 200 random attestations", async function () {
    const { registry, domain } = await loadFixture(deployRegistryFixture);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(attestationArbitrary(), async (a) => {
        runs++;
        expect(await registry.hashAttestation(a)).to.equal(attestationDigest(domain, a));
      }),
      { numRuns: 200, seed: SEED },
    );
    expect(runs).to.equal(200);
  });

  it("verify accepts viem signTypedData signatures over random attestations (sample of 25)", async function () {
    const { registry, domain, attester } = await loadFixture(deployRegistryFixture);
    // Expiries from the year 2100 on, so every sample is still valid on chain.
    await fc.assert(
      fc.asyncProperty(attestationArbitrary(4_102_444_800n), async (a) => {
        const signature = await signAttestation(ATTESTER_KEY, domain, a);
        const [valid, recovered] = await registry.verify(a, signature);
        expect(recovered).to.equal(attester.address);
        expect(valid).to.equal(true);
      }),
      { numRuns: 25, seed: SEED },
    );
  });

  it("verify accepts ethers Wallet.signTypedData signatures too (the second signing path)", async function () {
    const { registry, domain, attester } = await loadFixture(deployRegistryFixture);
    await fc.assert(
      fc.asyncProperty(attestationArbitrary(4_102_444_800n), async (a) => {
        const signature = await attester.signTypedData(
          { ...domain, chainId: domain.chainId },
          { Attestation: [...ATTESTATION_TYPES.Attestation] },
          a,
        );
        expect(signature).to.equal(await signAttestation(ATTESTER_KEY, domain, a));
        const [valid, recovered] = await registry.verify(a, signature);
        expect(recovered).to.equal(attester.address);
        expect(valid).to.equal(true);
      }),
      { numRuns: 10, seed: SEED },
    );
  });
});
