import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import { ethers } from "hardhat";

import { ListingGuard__factory } from "../../typechain-types";
import { deployRegistryFixture, MIN_BOND, SECOND_ATTESTER_KEY } from "../helpers/registryFixture";

const MIN_HORIZON_DAYS = 30;
const MIN_CONFIDENCE = 80;

/** The registry fixture plus two guards: one open to any registered attester, one pinned to the fixture's attester. */
async function listingGuardFixture() {
  const fixture = await deployRegistryFixture();
  const { owner, registryAddress, attester } = fixture;
  const factory = new ListingGuard__factory(owner);
  const openGuard = await factory.deploy(registryAddress, MIN_HORIZON_DAYS, MIN_CONFIDENCE, ethers.ZeroAddress);
  const pinnedGuard = await factory.deploy(registryAddress, MIN_HORIZON_DAYS, MIN_CONFIDENCE, attester.address);
  return { ...fixture, openGuard, pinnedGuard };
}

describe("ListingGuard (example consumer)", function () {
  describe("deployment", function () {
    it("exposes its registry and thresholds", async function () {
      const { pinnedGuard, registryAddress, attester } = await loadFixture(listingGuardFixture);
      expect(await pinnedGuard.registry()).to.equal(registryAddress);
      expect(await pinnedGuard.minHorizonDays()).to.equal(MIN_HORIZON_DAYS);
      expect(await pinnedGuard.minConfidence()).to.equal(MIN_CONFIDENCE);
      expect(await pinnedGuard.pinnedAttester()).to.equal(attester.address);
    });
  });

  describe("list", function () {
    it("lists a pool on a valid attestation at exactly the minimum horizon and confidence", async function () {
      const { openGuard, attestation, sign } = await loadFixture(listingGuardFixture);
      const a = { ...attestation, horizonDays: MIN_HORIZON_DAYS, confidence: MIN_CONFIDENCE };
      expect(await openGuard.isListed(a.chainId, a.pool)).to.equal(false);
      await openGuard.list(a, await sign(a));
      expect(await openGuard.isListed(a.chainId, a.pool)).to.equal(true);
    });

    it("accepts any registered attester when none is pinned", async function () {
      const { openGuard, registry, secondAttester, beneficiary, attestation, sign } =
        await loadFixture(listingGuardFixture);
      await registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND });
      await openGuard.list(attestation, await sign(attestation, SECOND_ATTESTER_KEY));
      expect(await openGuard.isListed(attestation.chainId, attestation.pool)).to.equal(true);
    });

    it("accepts the pinned attester", async function () {
      const { pinnedGuard, attestation, signature } = await loadFixture(listingGuardFixture);
      await pinnedGuard.list(attestation, signature);
      expect(await pinnedGuard.isListed(attestation.chainId, attestation.pool)).to.equal(true);
    });

    describe("validations", function () {
      it("reverts with HorizonTooShort one day below the minimum", async function () {
        const { openGuard, attestation, sign } = await loadFixture(listingGuardFixture);
        const a = { ...attestation, horizonDays: MIN_HORIZON_DAYS - 1 };
        await expect(openGuard.list(a, await sign(a)))
          .to.be.revertedWithCustomError(openGuard, "HorizonTooShort")
          .withArgs(MIN_HORIZON_DAYS - 1, MIN_HORIZON_DAYS);
      });

      it("reverts with ConfidenceTooLow one hundredth below the minimum", async function () {
        const { openGuard, attestation, sign } = await loadFixture(listingGuardFixture);
        const a = { ...attestation, confidence: MIN_CONFIDENCE - 1 };
        await expect(openGuard.list(a, await sign(a)))
          .to.be.revertedWithCustomError(openGuard, "ConfidenceTooLow")
          .withArgs(MIN_CONFIDENCE - 1, MIN_CONFIDENCE);
      });

      it("reverts with InvalidAttestation(attester) for a revoked attestation", async function () {
        const { openGuard, registry, attester, attestation, signature, digest } =
          await loadFixture(listingGuardFixture);
        await registry.connect(attester).revoke(digest(attestation));
        await expect(openGuard.list(attestation, signature))
          .to.be.revertedWithCustomError(openGuard, "InvalidAttestation")
          .withArgs(attester.address);
      });

      it("reverts with InvalidAttestation(attester) after expiresAt", async function () {
        const { openGuard, attester, attestation, signature } = await loadFixture(listingGuardFixture);
        await time.setNextBlockTimestamp(attestation.expiresAt + 1n);
        await expect(openGuard.list(attestation, signature))
          .to.be.revertedWithCustomError(openGuard, "InvalidAttestation")
          .withArgs(attester.address);
      });

      it("reverts with InvalidAttestation(address(0)) for a malformed signature", async function () {
        const { openGuard, attestation } = await loadFixture(listingGuardFixture);
        await expect(openGuard.list(attestation, `0x${"00".repeat(65)}`))
          .to.be.revertedWithCustomError(openGuard, "InvalidAttestation")
          .withArgs(ethers.ZeroAddress);
      });

      it("reverts with UnexpectedAttester for another registered attester when one is pinned", async function () {
        const { pinnedGuard, registry, attester, secondAttester, beneficiary, attestation, sign } =
          await loadFixture(listingGuardFixture);
        await registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND });
        await expect(pinnedGuard.list(attestation, await sign(attestation, SECOND_ATTESTER_KEY)))
          .to.be.revertedWithCustomError(pinnedGuard, "UnexpectedAttester")
          .withArgs(secondAttester.address, attester.address);
      });
    });

    describe("events", function () {
      it("emits PoolListed with the chain, pool, attester, horizon and confidence", async function () {
        const { openGuard, attester, attestation, signature } = await loadFixture(listingGuardFixture);
        await expect(openGuard.list(attestation, signature))
          .to.emit(openGuard, "PoolListed")
          .withArgs(
            attestation.chainId,
            attestation.pool,
            attester.address,
            attestation.horizonDays,
            attestation.confidence,
          );
      });
    });
  });
});
