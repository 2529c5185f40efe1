import { loadFixture, setBalance, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import fc from "fast-check";
import { Wallet } from "ethers";
import hre from "hardhat";
import type { Hex } from "viem";
import { hashTypedAttestation } from "../../src/lib/hashTypedAttestation";
import { signAttestation } from "../../src/lib/signAttestation";
import { signTypedAttestation } from "../../src/lib/signTypedAttestation";
import { toTypedAttestation } from "../../src/lib/toTypedAttestation";
import type { AttestationFields } from "../../src/lib/types";
import { verifyTypedAttestation } from "../../src/lib/verifyTypedAttestation";
import { malleate } from "../vectors/signatures";
import v2 from "../vectors/attestation-v2.json";

const MIN_BOND = 10n ** 17n;
const UNBONDING_PERIOD = 7n * 24n * 3600n;
const attesterKey = v2.attester.privateKey as Hex;

/** The library's v2 message in the shape the contract's `Attestation` struct takes. */
function struct(attestation: AttestationFields) {
  const t = toTypedAttestation({ attestation });
  return {
    chainId: t.chainId,
    pool: t.pool,
    confidence: t.confidence,
    horizonDays: t.horizonDays,
    issuedAt: t.issuedAt,
    expiresAt: t.expiresAt,
  };
}

async function deployRegistryFixture() {
  const [owner, beneficiary] = await hre.ethers.getSigners();
  const factory = await hre.ethers.getContractFactory("AttestationRegistry");
  const registry = await factory.deploy(owner.address, MIN_BOND, UNBONDING_PERIOD);
  await registry.waitForDeployment();
  const address = await registry.getAddress();
  const { chainId } = await hre.ethers.provider.getNetwork();

  // The vectors' attester key registers itself with the minimum bond.
  const attester = new Wallet(attesterKey, hre.ethers.provider);
  await setBalance(attester.address, 10n ** 18n);
  await registry.connect(attester).register(beneficiary.address, { value: MIN_BOND });
  return { registry, address, chainId: Number(chainId), attester };
}

describe("library ↔ AttestationRegistry parity", () => {
  describe("hashAttestation", () => {
    it("equals the pinned v2 digests under the vectors' registry address", async () => {
      const { registry } = await loadFixture(deployRegistryFixture);
      const { chainId } = await hre.ethers.provider.getNetwork();
      const code = await hre.ethers.provider.getCode(await registry.getAddress());
      let checked = 0;
      for (const c of v2.cases) {
        if (BigInt(c.registry.chainId) !== chainId) continue;
        checked++;
        // Same bytecode at the pinned address: OpenZeppelin EIP712 rebuilds the separator for address(this).
        await hre.network.provider.send("hardhat_setCode", [c.registry.address, code]);
        const pinned = registry.attach(c.registry.address) as typeof registry;
        const attestation = c.attestation as AttestationFields;
        expect(await pinned.hashAttestation(struct(attestation)), c.id).to.equal(c.digest);
        expect(hashTypedAttestation({ attestation, registry: c.registry }), c.id).to.equal(c.digest);
      }
      expect(checked, "vectors for this chain").to.be.greaterThan(0);
    });

    it("equals the library's digest for random attestations (property, 40 runs)", async () => {
      const { registry, address, chainId } = await loadFixture(deployRegistryFixture);
      const safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            chainId: safe,
            confidence: fc.integer({ min: 0, max: 65535 }).map((k) => k / 100),
            expiry: safe,
            horizon: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
            issuedAt: safe.map(String),
            pool: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
          }),
          async (attestation) => {
            expect(await registry.hashAttestation(struct(attestation))).to.equal(
              hashTypedAttestation({ attestation, registry: { chainId, address } }),
            );
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe("verify", () => {
    async function freshAttestation(lifetime = 3600) {
      const now = await time.latest();
      return {
        chainId: 8453,
        confidence: 0.855,
        expiry: now + lifetime,
        horizon: 30,
        issuedAt: now,
        pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5640",
      } satisfies AttestationFields;
    }

    it("returns (true, attester) for a library v2 signature of a registered attester", async () => {
      const { registry, address, chainId, attester } = await loadFixture(deployRegistryFixture);
      const attestation = await freshAttestation();
      const signature = await signTypedAttestation({
        attestation,
        registry: { chainId, address },
        privateKey: attesterKey,
      });
      const [valid, recovered] = await registry.verify(struct(attestation), signature);
      expect(valid).to.equal(true);
      expect(recovered).to.equal(attester.address);
      // The library's offline check agrees on the signer.
      expect(
        verifyTypedAttestation({ attestation, registry: { chainId, address }, address: attester.address, signature }),
      ).to.include({ valid: true, attester: attester.address });
    });

    it("rejects what the library rejects: high-s twin, v1 signature, another registry's signature", async () => {
      const { registry, address, chainId, attester } = await loadFixture(deployRegistryFixture);
      const attestation = await freshAttestation();
      const signature = await signTypedAttestation({
        attestation,
        registry: { chainId, address },
        privateKey: attesterKey,
      });

      const highS = malleate(signature);
      expect(await registry.verify(struct(attestation), highS)).to.deep.equal([false, hre.ethers.ZeroAddress]);
      expect(
        verifyTypedAttestation({
          attestation,
          registry: { chainId, address },
          address: attester.address,
          signature: highS,
        }),
      ).to.include({ valid: false, attester: null });

      const v1Signature = await signAttestation({ attestation, privateKey: attesterKey });
      expect((await registry.verify(struct(attestation), v1Signature))[0]).to.equal(false);

      const otherRegistry = await signTypedAttestation({
        attestation,
        registry: { chainId, address: "0x00000000000000000000000000000000000a7e57" },
        privateKey: attesterKey,
      });
      expect((await registry.verify(struct(attestation), otherRegistry))[0]).to.equal(false);
    });

    it("pins the expiry boundaries: on chain valid at block.timestamp == expiresAt, off chain expired at now == expiry", async () => {
      const { registry, address, chainId, attester } = await loadFixture(deployRegistryFixture);
      const attestation = await freshAttestation(1000);
      const signature = await signTypedAttestation({
        attestation,
        registry: { chainId, address },
        privateKey: attesterKey,
      });

      await time.increaseTo(attestation.expiry); // mines a block with timestamp == expiresAt
      expect(await time.latest()).to.equal(attestation.expiry);
      expect((await registry.verify(struct(attestation), signature, { blockTag: "latest" }))[0]).to.equal(true);
      const offChain = verifyTypedAttestation({
        attestation,
        registry: { chainId, address },
        address: attester.address,
        signature,
        time: new Date(attestation.expiry * 1000),
      });
      expect(offChain).to.include({ valid: true, expired: true });

      await time.increaseTo(attestation.expiry + 1);
      expect((await registry.verify(struct(attestation), signature, { blockTag: "latest" }))[0]).to.equal(false);
    });
  });
});
