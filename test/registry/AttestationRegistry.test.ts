import { loadFixture, setBalance, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { recoverAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import {
  AttestationRegistry__factory,
  ReentrantBeneficiary__factory,
  VerifyGasCaller__factory,
  type AttestationRegistry,
} from "../../typechain-types";
import {
  AttestationRegistryModule,
  DEFAULT_MIN_BOND,
  DEFAULT_UNBONDING_PERIOD,
} from "../../ignition/modules/AttestationRegistry";
import localhostParameters from "../../ignition/parameters/localhost.json";
import {
  attestationDigest,
  attestationWords,
  joinSignature,
  rawWordsDigest,
  replaceArgumentWord,
  registryDomain,
  signAttestation,
  splitSignature,
  toCompact,
  toHighS,
  SECP256K1_N,
  type AttestationStruct,
} from "../helpers/eip712";
import {
  deployRegistryFixture,
  ATTESTER_KEY,
  MIN_BOND,
  UNBONDING_PERIOD,
  UNREGISTERED_KEY,
} from "../helpers/registryFixture";

const ZERO_ADDRESS = ethers.ZeroAddress;
const UINT96_MAX = (1n << 96n) - 1n;

/** Reads `verify` through an eth_call and asserts both return values. */
async function expectVerify(
  registry: AttestationRegistry,
  a: AttestationStruct,
  signature: string,
  valid: boolean,
  attester: string,
) {
  const [gotValid, gotAttester] = await registry.verify(a, signature);
  expect(gotAttester).to.equal(attester);
  expect(gotValid).to.equal(valid);
}

/** The fixture plus the harnesses. */
async function registryWithHarnessesFixture() {
  const fixture = await deployRegistryFixture();
  const caller = await new VerifyGasCaller__factory(fixture.owner).deploy();
  const malicious = await new ReentrantBeneficiary__factory(fixture.owner).deploy(fixture.registryAddress);
  const iface = fixture.registry.interface;
  const withdrawCall = iface.encodeFunctionData("withdraw");
  /** Registers the malicious contract as an attester that is its own beneficiary, and waits out its unbonding. */
  const registerMaliciousAndUnbond = async () => {
    const self = await malicious.getAddress();
    await malicious.callRegistry(iface.encodeFunctionData("register", [self]), { value: MIN_BOND });
    await malicious.callRegistry(iface.encodeFunctionData("requestUnbond"));
    await time.increase(UNBONDING_PERIOD);
  };
  return { ...fixture, caller, malicious, withdrawCall, registerMaliciousAndUnbond };
}

/** The struct's narrow fields: their ABI word index and bit width (bits at or above it are dirty). */
const NARROW_FIELDS = [
  { field: "pool", index: 1, width: 160 },
  { field: "confidence", index: 2, width: 16 },
  { field: "horizonDays", index: 3, width: 32 },
  { field: "issuedAt", index: 4, width: 64 },
  { field: "expiresAt", index: 5, width: 64 },
] as const;

/** ReentrantBeneficiary modes. */
const ACCEPT = 0;
const REJECT = 1;
const REENTER = 2;

describe("AttestationRegistry", function () {
  describe("deployment (Ignition module)", function () {
    it("sets the owner, the immutable minimum bond and unbonding period", async function () {
      const { registry, owner } = await loadFixture(deployRegistryFixture);
      expect(await registry.owner()).to.equal(owner.address);
      expect(await registry.minBond()).to.equal(MIN_BOND);
      expect(await registry.unbondingPeriod()).to.equal(UNBONDING_PERIOD);
    });

    it("deploys with the module defaults: first account as owner, 1 ether, 7 days", async function () {
      const { owner, registryAddress } = await loadFixture(deployRegistryFixture);
      const { registry } = await hre.ignition.deploy(AttestationRegistryModule);
      // A fresh deployment, not the fixture's (which used explicit parameters).
      expect(await registry.getAddress()).to.not.equal(registryAddress);
      const deployed = AttestationRegistry__factory.connect(await registry.getAddress(), owner);
      expect(await deployed.owner()).to.equal(owner.address);
      expect(await deployed.minBond()).to.equal(DEFAULT_MIN_BOND);
      expect(await deployed.unbondingPeriod()).to.equal(DEFAULT_UNBONDING_PERIOD);
    });

    it("ships localhost parameters equal to the defaults with Hardhat's first account as owner", async function () {
      const { owner } = await loadFixture(deployRegistryFixture);
      const { AttestationRegistryModule: parameters } = localhostParameters;
      expect(parameters.owner).to.equal(owner.address);
      expect(parameters.minBond).to.equal(`${DEFAULT_MIN_BOND}n`);
      expect(parameters.unbondingPeriod).to.equal(`${DEFAULT_UNBONDING_PERIOD}n`);
    });

    describe("constructor validations", function () {
      const MAX_UNBONDING_PERIOD = 3650n * 86_400n;

      it("reverts with InvalidMinBond for a zero minimum bond", async function () {
        const { owner } = await loadFixture(deployRegistryFixture);
        const factory = new AttestationRegistry__factory(owner);
        await expect(factory.deploy(owner.address, 0n, UNBONDING_PERIOD))
          .to.be.revertedWithCustomError(factory, "InvalidMinBond")
          .withArgs(0n);
      });

      it("reverts with InvalidMinBond for a minimum bond above 2^96 - 1 wei", async function () {
        const { owner } = await loadFixture(deployRegistryFixture);
        const factory = new AttestationRegistry__factory(owner);
        await expect(factory.deploy(owner.address, UINT96_MAX + 1n, UNBONDING_PERIOD))
          .to.be.revertedWithCustomError(factory, "InvalidMinBond")
          .withArgs(UINT96_MAX + 1n);
      });

      it("accepts the minimum bond bounds 1 wei and 2^96 - 1 wei", async function () {
        const { owner } = await loadFixture(deployRegistryFixture);
        const factory = new AttestationRegistry__factory(owner);
        for (const minBond of [1n, UINT96_MAX]) {
          const deployed = await factory.deploy(owner.address, minBond, UNBONDING_PERIOD);
          expect(await deployed.minBond()).to.equal(minBond);
        }
      });

      it("reverts with InvalidUnbondingPeriod at 0 (nothing left to slash), one second above 3,650 days and at 2^64 - 1", async function () {
        const { owner } = await loadFixture(deployRegistryFixture);
        const factory = new AttestationRegistry__factory(owner);
        for (const period of [0n, MAX_UNBONDING_PERIOD + 1n, (1n << 64n) - 1n]) {
          await expect(factory.deploy(owner.address, MIN_BOND, period))
            .to.be.revertedWithCustomError(factory, "InvalidUnbondingPeriod")
            .withArgs(period, MAX_UNBONDING_PERIOD);
        }
      });

      it("accepts exactly 3,650 days, and unbonding then works without overflow", async function () {
        const { owner, attester, beneficiary } = await loadFixture(deployRegistryFixture);
        const deployed = await new AttestationRegistry__factory(owner).deploy(
          owner.address,
          MIN_BOND,
          MAX_UNBONDING_PERIOD,
        );
        expect(await deployed.unbondingPeriod()).to.equal(MAX_UNBONDING_PERIOD);
        await deployed.connect(attester).register(beneficiary.address, { value: MIN_BOND });
        await deployed.connect(attester).requestUnbond();
        const { withdrawableAt } = await deployed.getAttester(attester.address);
        expect(withdrawableAt).to.equal(BigInt(await time.latest()) + MAX_UNBONDING_PERIOD);
      });
    });

    it("exposes the ERC-5267 EIP-712 domain bound to this chain and this registry", async function () {
      const { registry, registryAddress, chainId } = await loadFixture(deployRegistryFixture);
      const domain = await registry.eip712Domain();
      expect(domain.fields).to.equal("0x0f");
      expect(domain.name).to.equal("AttestationRegistry");
      expect(domain.version).to.equal("1");
      expect(domain.chainId).to.equal(chainId);
      expect(domain.verifyingContract).to.equal(registryAddress);
      expect(domain.salt).to.equal(ethers.ZeroHash);
      expect(domain.extensions).to.deep.equal([]);
    });
  });

  describe("register", function () {
    it("registers msg.sender with msg.value as its bond and the given beneficiary", async function () {
      const { registry, secondAttester, beneficiary } = await loadFixture(deployRegistryFixture);
      await registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND * 3n });
      const info = await registry.getAttester(secondAttester.address);
      expect(info.registered).to.equal(true);
      expect(info.unbonding).to.equal(false);
      expect(info.hasRevoked).to.equal(false);
      expect(info.bond).to.equal(MIN_BOND * 3n);
      expect(info.withdrawableAt).to.equal(0n);
      expect(info.beneficiary).to.equal(beneficiary.address);
    });

    it("holds the bond in the registry", async function () {
      const { registry, secondAttester, beneficiary } = await loadFixture(deployRegistryFixture);
      await expect(
        registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND }),
      ).to.changeEtherBalances([secondAttester, registry], [-MIN_BOND, MIN_BOND]);
    });

    it("lets a key register again after withdrawing, and its earlier revocations stay in force", async function () {
      const fixture = await loadFixture(deployRegistryFixture);
      const { registry, attester, beneficiary, digest } = fixture;
      const attestation = { ...fixture.attestation, expiresAt: fixture.attestation.expiresAt + 2n * UNBONDING_PERIOD };
      const signature = await fixture.sign(attestation);
      await registry.connect(attester).revoke(digest(attestation));
      await registry.connect(attester).requestUnbond();
      await time.increase(UNBONDING_PERIOD);
      await registry.connect(attester).withdraw();
      expect((await registry.getAttester(attester.address)).hasRevoked).to.equal(true);

      await registry.connect(attester).register(beneficiary.address, { value: MIN_BOND });
      const info = await registry.getAttester(attester.address);
      expect(info.registered).to.equal(true);
      expect(info.hasRevoked).to.equal(true);
      await expectVerify(registry, attestation, signature, false, attester.address);
      const fresh = { ...attestation, issuedAt: attestation.issuedAt + 1n };
      await expectVerify(
        registry,
        fresh,
        await signAttestation(ATTESTER_KEY, await domainOf(registry), fresh),
        true,
        attester.address,
      );
    });

    describe("validations", function () {
      it("reverts with ZeroAddress when the beneficiary is the zero address", async function () {
        const { registry, secondAttester } = await loadFixture(deployRegistryFixture);
        await expect(
          registry.connect(secondAttester).register(ZERO_ADDRESS, { value: MIN_BOND }),
        ).to.be.revertedWithCustomError(registry, "ZeroAddress");
      });

      it("reverts with AlreadyRegistered when the key is registered", async function () {
        const { registry, attester, beneficiary } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND }))
          .to.be.revertedWithCustomError(registry, "AlreadyRegistered")
          .withArgs(attester.address);
      });

      it("reverts with AlreadyRegistered while a deregistered key's bond waits to be withdrawn", async function () {
        const { registry, attester, beneficiary } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).deregister();
        await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND }))
          .to.be.revertedWithCustomError(registry, "AlreadyRegistered")
          .withArgs(attester.address);
      });

      it("reverts with AttesterRemoved for a key the owner removed, before and after its withdrawal", async function () {
        const { registry, attester, beneficiary } = await loadFixture(deployRegistryFixture);
        await registry.removeAttester(attester.address);
        await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND }))
          .to.be.revertedWithCustomError(registry, "AttesterRemoved")
          .withArgs(attester.address);
        await time.increase(UNBONDING_PERIOD);
        await registry.connect(attester).withdraw();
        await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND }))
          .to.be.revertedWithCustomError(registry, "AttesterRemoved")
          .withArgs(attester.address);
      });

      it("does not treat a self-deregistration as a removal: the key registers again after withdrawing", async function () {
        const { registry, attester, beneficiary, sign, ...fixture } = await loadFixture(deployRegistryFixture);
        const attestation = {
          ...fixture.attestation,
          expiresAt: fixture.attestation.expiresAt + 4n * UNBONDING_PERIOD,
        };
        const signature = await sign(attestation);
        await registry.connect(attester).deregister();
        await time.increase(UNBONDING_PERIOD);
        await registry.connect(attester).withdraw();
        await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND })).to.emit(
          registry,
          "Registered",
        );
        await expectVerify(registry, attestation, signature, true, attester.address);
      });

      it("reverts with BondTooLow when msg.value is one wei below the minimum", async function () {
        const { registry, secondAttester, beneficiary } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND - 1n }))
          .to.be.revertedWithCustomError(registry, "BondTooLow")
          .withArgs(MIN_BOND - 1n, MIN_BOND);
      });

      it("reverts with BondOverflow when msg.value does not fit in 96 bits", async function () {
        const { registry, secondAttester, beneficiary } = await loadFixture(deployRegistryFixture);
        await setBalance(secondAttester.address, UINT96_MAX * 2n);
        await expect(registry.connect(secondAttester).register(beneficiary.address, { value: UINT96_MAX + 1n }))
          .to.be.revertedWithCustomError(registry, "BondOverflow")
          .withArgs(UINT96_MAX + 1n);
      });
    });

    describe("events", function () {
      it("emits Registered with the attester, beneficiary and bond", async function () {
        const { registry, secondAttester, beneficiary } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND + 5n }))
          .to.emit(registry, "Registered")
          .withArgs(secondAttester.address, beneficiary.address, MIN_BOND + 5n);
      });
    });
  });

  describe("addBond", function () {
    it("lets anyone add to a registered attester's bond", async function () {
      const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
      await expect(registry.connect(payer).addBond(attester.address, { value: 7n })).to.changeEtherBalances(
        [payer, registry],
        [-7n, 7n],
      );
      expect((await registry.getAttester(attester.address)).bond).to.equal(MIN_BOND + 7n);
    });

    it("makes an attester whose bond was slashed below the minimum valid again", async function () {
      const { registry, attester, payer, stranger, attestation, signature } = await loadFixture(deployRegistryFixture);
      await registry.slash(attester.address, 1n, stranger.address);
      await expectVerify(registry, attestation, signature, false, attester.address);
      await registry.connect(payer).addBond(attester.address, { value: 1n });
      await expectVerify(registry, attestation, signature, true, attester.address);
    });

    describe("validations", function () {
      it("reverts with ZeroAmount when no ether is sent", async function () {
        const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(payer).addBond(attester.address)).to.be.revertedWithCustomError(
          registry,
          "ZeroAmount",
        );
      });

      it("reverts with NotRegistered for an unknown key", async function () {
        const { registry, unregistered, payer } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(payer).addBond(unregistered.address, { value: 1n }))
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });

      it("reverts with NotRegistered for a deregistered attester", async function () {
        const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).deregister();
        await expect(registry.connect(payer).addBond(attester.address, { value: 1n }))
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(attester.address);
      });

      it("reverts with AlreadyUnbonding for an attester that requested unbonding", async function () {
        const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        const { withdrawableAt } = await registry.getAttester(attester.address);
        await expect(registry.connect(payer).addBond(attester.address, { value: 1n }))
          .to.be.revertedWithCustomError(registry, "AlreadyUnbonding")
          .withArgs(attester.address, withdrawableAt);
      });

      it("reverts with BondOverflow when the bond would exceed 2^96 - 1 wei", async function () {
        const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
        await setBalance(payer.address, UINT96_MAX * 2n);
        const amount = UINT96_MAX - MIN_BOND + 1n;
        await expect(registry.connect(payer).addBond(attester.address, { value: amount }))
          .to.be.revertedWithCustomError(registry, "BondOverflow")
          .withArgs(UINT96_MAX + 1n);
        // Exactly the maximum still fits.
        await registry.connect(payer).addBond(attester.address, { value: amount - 1n });
        expect((await registry.getAttester(attester.address)).bond).to.equal(UINT96_MAX);
      });
    });

    describe("events", function () {
      it("emits BondAdded with the attester, payer, amount and new bond", async function () {
        const { registry, attester, payer } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(payer).addBond(attester.address, { value: 7n }))
          .to.emit(registry, "BondAdded")
          .withArgs(attester.address, payer.address, 7n, MIN_BOND + 7n);
      });
    });
  });

  describe("requestUnbond", function () {
    it("starts unbonding the whole bond: withdrawableAt = now + unbondingPeriod, still registered", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      const tx = await registry.connect(attester).requestUnbond();
      const now = BigInt((await tx.getBlock())!.timestamp);
      const info = await registry.getAttester(attester.address);
      expect(info.registered).to.equal(true);
      expect(info.unbonding).to.equal(true);
      expect(info.bond).to.equal(MIN_BOND);
      expect(info.withdrawableAt).to.equal(now + UNBONDING_PERIOD);
    });

    describe("validations", function () {
      it("reverts with NotRegistered for an unknown key", async function () {
        const { registry, unregistered } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(unregistered).requestUnbond())
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });

      it("reverts with AlreadyUnbonding when unbonding was already requested", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        const { withdrawableAt } = await registry.getAttester(attester.address);
        await expect(registry.connect(attester).requestUnbond())
          .to.be.revertedWithCustomError(registry, "AlreadyUnbonding")
          .withArgs(attester.address, withdrawableAt);
      });
    });

    describe("events", function () {
      it("emits UnbondRequested with the attester, bond and withdrawableAt", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        const next = BigInt(await time.latest()) + 10n;
        await time.setNextBlockTimestamp(next);
        await expect(registry.connect(attester).requestUnbond())
          .to.emit(registry, "UnbondRequested")
          .withArgs(attester.address, MIN_BOND, next + UNBONDING_PERIOD);
      });
    });
  });

  describe("deregister", function () {
    it("marks the key not registered and starts unbonding", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      const tx = await registry.connect(attester).deregister();
      const now = BigInt((await tx.getBlock())!.timestamp);
      const info = await registry.getAttester(attester.address);
      expect(info.registered).to.equal(false);
      expect(info.unbonding).to.equal(true);
      expect(info.withdrawableAt).to.equal(now + UNBONDING_PERIOD);
      expect(info.bond).to.equal(MIN_BOND);
    });

    it("keeps the earlier withdrawableAt when the attester is already unbonding", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      await registry.connect(attester).requestUnbond();
      const { withdrawableAt } = await registry.getAttester(attester.address);
      await time.increase(100);
      await expect(registry.connect(attester).deregister())
        .to.emit(registry, "Deregistered")
        .withArgs(attester.address, attester.address, withdrawableAt);
      expect((await registry.getAttester(attester.address)).withdrawableAt).to.equal(withdrawableAt);
    });

    describe("validations", function () {
      it("reverts with NotRegistered for an unknown key", async function () {
        const { registry, unregistered } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(unregistered).deregister())
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });

      it("reverts with NotRegistered when already deregistered", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).deregister();
        await expect(registry.connect(attester).deregister())
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(attester.address);
      });
    });

    describe("events", function () {
      it("emits Deregistered with the attester as caller and the new withdrawableAt", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        const next = BigInt(await time.latest()) + 10n;
        await time.setNextBlockTimestamp(next);
        await expect(registry.connect(attester).deregister())
          .to.emit(registry, "Deregistered")
          .withArgs(attester.address, attester.address, next + UNBONDING_PERIOD);
      });
    });
  });

  describe("removeAttester", function () {
    it("lets the owner deregister an attester and start its unbonding", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      await registry.removeAttester(attester.address);
      const info = await registry.getAttester(attester.address);
      expect(info.registered).to.equal(false);
      expect(info.unbonding).to.equal(true);
    });

    it("is permanent: after withdrawing, the key cannot register again and verify stays false", async function () {
      const { registry, attester, beneficiary, sign, ...fixture } = await loadFixture(deployRegistryFixture);
      const attestation = { ...fixture.attestation, expiresAt: fixture.attestation.expiresAt + 4n * UNBONDING_PERIOD };
      const signature = await sign(attestation);
      await registry.removeAttester(attester.address);
      await time.increase(UNBONDING_PERIOD);
      await expect(registry.connect(attester).withdraw()).to.changeEtherBalance(beneficiary, MIN_BOND);
      await expect(registry.connect(attester).register(beneficiary.address, { value: MIN_BOND }))
        .to.be.revertedWithCustomError(registry, "AttesterRemoved")
        .withArgs(attester.address);
      await expectVerify(registry, attestation, signature, false, attester.address);
    });

    describe("validations", function () {
      it("reverts with OwnableUnauthorizedAccount for anyone but the owner", async function () {
        const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(stranger).removeAttester(attester.address))
          .to.be.revertedWithCustomError(registry, "OwnableUnauthorizedAccount")
          .withArgs(stranger.address);
      });

      it("reverts with NotRegistered for an unknown key", async function () {
        const { registry, unregistered } = await loadFixture(deployRegistryFixture);
        await expect(registry.removeAttester(unregistered.address))
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });
    });

    describe("events", function () {
      it("emits Deregistered with the owner as caller", async function () {
        const { registry, attester, owner } = await loadFixture(deployRegistryFixture);
        const next = BigInt(await time.latest()) + 10n;
        await time.setNextBlockTimestamp(next);
        await expect(registry.removeAttester(attester.address))
          .to.emit(registry, "Deregistered")
          .withArgs(attester.address, owner.address, next + UNBONDING_PERIOD);
      });
    });
  });

  describe("withdraw", function () {
    it("sends the whole bond to the beneficiary after the period and clears the record", async function () {
      const { registry, attester, payer, beneficiary } = await loadFixture(deployRegistryFixture);
      await registry.connect(payer).addBond(attester.address, { value: 5n });
      await registry.connect(attester).requestUnbond();
      await time.increase(UNBONDING_PERIOD);
      await expect(registry.connect(attester).withdraw()).to.changeEtherBalances(
        [registry, beneficiary, attester],
        [-(MIN_BOND + 5n), MIN_BOND + 5n, 0n],
      );
      const info = await registry.getAttester(attester.address);
      expect(info.registered).to.equal(false);
      expect(info.unbonding).to.equal(false);
      expect(info.bond).to.equal(0n);
      expect(info.withdrawableAt).to.equal(0n);
      expect(info.beneficiary).to.equal(ZERO_ADDRESS);
    });

    it("succeeds exactly at withdrawableAt", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      await registry.connect(attester).deregister();
      const { withdrawableAt } = await registry.getAttester(attester.address);
      await time.setNextBlockTimestamp(withdrawableAt);
      await expect(registry.connect(attester).withdraw()).to.emit(registry, "Withdrawn");
    });

    it("clears the record of a fully slashed attester, paying nothing", async function () {
      const { registry, attester, stranger, beneficiary } = await loadFixture(deployRegistryFixture);
      await registry.slash(attester.address, MIN_BOND, stranger.address);
      await registry.connect(attester).requestUnbond();
      await time.increase(UNBONDING_PERIOD);
      await expect(registry.connect(attester).withdraw()).to.changeEtherBalance(beneficiary, 0n);
      expect((await registry.getAttester(attester.address)).registered).to.equal(false);
    });

    it("clears a fully slashed record even when the beneficiary rejects ether: no transfer, Withdrawn with 0", async function () {
      const { registry, malicious, withdrawCall, registerMaliciousAndUnbond } =
        await loadFixture(registryWithHarnessesFixture);
      const self = await malicious.getAddress();
      await registerMaliciousAndUnbond();
      await registry.slash(self, MIN_BOND, (await ethers.getSigners())[1].address);
      await malicious.setMode(REJECT);
      await expect(malicious.callRegistry(withdrawCall)).to.emit(registry, "Withdrawn").withArgs(self, self, 0n);
      const info = await registry.getAttester(self);
      expect(info.unbonding).to.equal(false);
      expect(info.beneficiary).to.equal(ZERO_ADDRESS);
      // The key is free again: it can register anew.
      await malicious.setMode(ACCEPT);
      await malicious.callRegistry(registry.interface.encodeFunctionData("register", [self]), { value: MIN_BOND });
      expect((await registry.getAttester(self)).registered).to.equal(true);
    });

    it("blocks a re-entrant withdraw from a malicious beneficiary: paid once", async function () {
      const { registry, malicious, withdrawCall, registerMaliciousAndUnbond } =
        await loadFixture(registryWithHarnessesFixture);
      await registerMaliciousAndUnbond();
      await malicious.setMode(REENTER);
      await malicious.setReentryCall(withdrawCall);
      await expect(malicious.callRegistry(withdrawCall)).to.changeEtherBalances(
        [registry, malicious],
        [-MIN_BOND, MIN_BOND],
      );
      expect(await malicious.payments()).to.equal(1n);
      expect(await malicious.reentrySucceeded()).to.equal(false);
      const selector = registry.interface.getError("ReentrancyGuardReentrantCall")!.selector;
      expect(await malicious.reentryData()).to.equal(selector);
    });

    it("has already cleared the record when the beneficiary is paid: getAttester and verify inside receive", async function () {
      const fixture = await loadFixture(registryWithHarnessesFixture);
      const { registry, malicious, attester } = fixture;
      const attestation = { ...fixture.attestation, expiresAt: fixture.attestation.expiresAt + 4n * UNBONDING_PERIOD };
      const signature = await fixture.sign(attestation);
      // A fresh registration of the same key with the malicious contract as beneficiary.
      await registry.connect(attester).deregister();
      await time.increase(UNBONDING_PERIOD);
      await registry.connect(attester).withdraw();
      await registry.connect(attester).register(await malicious.getAddress(), { value: MIN_BOND });
      await expectVerify(registry, attestation, signature, true, attester.address);

      await malicious.setMode(ACCEPT);
      await malicious.setAttestation(attestation, signature);
      await malicious.watchAttester(attester.address);
      await registry.connect(attester).requestUnbond();
      await time.increase(UNBONDING_PERIOD);
      await registry.connect(attester).withdraw();
      // The record as the beneficiary saw it while being paid: already cleared (state before interaction).
      expect(await malicious.recordSeen()).to.equal(true);
      const seen = await malicious.seenRecord();
      expect(seen.bond).to.equal(0n);
      expect(seen.registered).to.equal(false);
      expect(seen.unbonding).to.equal(false);
      expect(seen.withdrawableAt).to.equal(0n);
      expect(seen.beneficiary).to.equal(ZERO_ADDRESS);
      expect(await malicious.verifyCalled()).to.equal(true);
      expect(await malicious.verifiedValid()).to.equal(false);
      expect(await malicious.verifiedAttester()).to.equal(attester.address);
    });

    describe("validations", function () {
      it("reverts with NotRegistered for a key without a record", async function () {
        const { registry, unregistered } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(unregistered).withdraw())
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });

      it("reverts with NotUnbonding for a registered attester that did not request unbonding", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(attester).withdraw())
          .to.be.revertedWithCustomError(registry, "NotUnbonding")
          .withArgs(attester.address);
      });

      it("reverts with UnbondingNotElapsed one second before withdrawableAt", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        const { withdrawableAt } = await registry.getAttester(attester.address);
        await time.setNextBlockTimestamp(withdrawableAt - 1n);
        await expect(registry.connect(attester).withdraw())
          .to.be.revertedWithCustomError(registry, "UnbondingNotElapsed")
          .withArgs(attester.address, withdrawableAt, withdrawableAt - 1n);
      });

      it("reverts with TransferFailed when the beneficiary rejects ether, keeping the record", async function () {
        const { registry, malicious, withdrawCall, registerMaliciousAndUnbond } =
          await loadFixture(registryWithHarnessesFixture);
        await registerMaliciousAndUnbond();
        await malicious.setMode(REJECT);
        await expect(malicious.callRegistry(withdrawCall))
          .to.be.revertedWithCustomError(registry, "TransferFailed")
          .withArgs(await malicious.getAddress(), MIN_BOND);
        expect((await registry.getAttester(await malicious.getAddress())).bond).to.equal(MIN_BOND);
      });
    });

    describe("events", function () {
      it("emits Withdrawn with the attester, beneficiary and amount", async function () {
        const { registry, attester, beneficiary } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        await time.increase(UNBONDING_PERIOD);
        await expect(registry.connect(attester).withdraw())
          .to.emit(registry, "Withdrawn")
          .withArgs(attester.address, beneficiary.address, MIN_BOND);
      });
    });
  });

  describe("slash", function () {
    it("moves part of the bond to the recipient", async function () {
      const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
      await expect(registry.slash(attester.address, 10n, stranger.address)).to.changeEtherBalances(
        [registry, stranger],
        [-10n, 10n],
      );
      expect((await registry.getAttester(attester.address)).bond).to.equal(MIN_BOND - 10n);
    });

    it("can take the whole bond of an unbonding, deregistered attester", async function () {
      const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
      await registry.connect(attester).deregister();
      await registry.slash(attester.address, MIN_BOND, stranger.address);
      expect((await registry.getAttester(attester.address)).bond).to.equal(0n);
    });

    it("blocks re-entry from the recipient (shared guard with withdraw)", async function () {
      const { registry, malicious, attester, withdrawCall, registerMaliciousAndUnbond } =
        await loadFixture(registryWithHarnessesFixture);
      await registerMaliciousAndUnbond();
      await malicious.setMode(REENTER); // tries its own withdraw while being paid the slash
      await malicious.setReentryCall(withdrawCall);
      await registry.slash(attester.address, 3n, await malicious.getAddress());
      expect(await malicious.reentrySucceeded()).to.equal(false);
      const selector = registry.interface.getError("ReentrancyGuardReentrantCall")!.selector;
      expect(await malicious.reentryData()).to.equal(selector);
      expect((await registry.getAttester(await malicious.getAddress())).bond).to.equal(MIN_BOND);
    });

    it("blocks a re-entrant slash even from an owner contract: one slash per call", async function () {
      const { registry, malicious, attester } = await loadFixture(registryWithHarnessesFixture);
      const self = await malicious.getAddress();
      const iface = registry.interface;
      await registry.transferOwnership(self);
      await malicious.callRegistry(iface.encodeFunctionData("acceptOwnership"));
      const slashCall = iface.encodeFunctionData("slash", [attester.address, 1n, self]);
      await malicious.setMode(REENTER); // slashes again while being paid the first slash
      await malicious.setReentryCall(slashCall);
      await expect(malicious.callRegistry(slashCall)).to.changeEtherBalances([registry, malicious], [-1n, 1n]);
      expect(await malicious.payments()).to.equal(1n);
      expect(await malicious.reentrySucceeded()).to.equal(false);
      expect(await malicious.reentryData()).to.equal(iface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect((await registry.getAttester(attester.address)).bond).to.equal(MIN_BOND - 1n);
    });

    it("has already lowered the bond when the recipient is paid (getAttester inside receive)", async function () {
      const { registry, malicious, attester } = await loadFixture(registryWithHarnessesFixture);
      await malicious.watchAttester(attester.address);
      await registry.slash(attester.address, 1n, await malicious.getAddress());
      expect(await malicious.recordSeen()).to.equal(true);
      const seen = await malicious.seenRecord();
      expect(seen.bond).to.equal(MIN_BOND - 1n);
      expect(seen.registered).to.equal(true);
    });

    it("makes verify false before paying: a 1-wei slash of a minBond attester, verify inside receive", async function () {
      const { registry, malicious, attester, attestation, signature } = await loadFixture(registryWithHarnessesFixture);
      expect((await registry.getAttester(attester.address)).bond).to.equal(MIN_BOND);
      await expectVerify(registry, attestation, signature, true, attester.address);
      await malicious.setAttestation(attestation, signature);
      await registry.slash(attester.address, 1n, await malicious.getAddress());
      expect(await malicious.verifyCalled()).to.equal(true);
      expect(await malicious.verifiedValid()).to.equal(false);
      expect(await malicious.verifiedAttester()).to.equal(attester.address);
    });

    describe("validations", function () {
      it("reverts with OwnableUnauthorizedAccount for anyone but the owner", async function () {
        const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.connect(stranger).slash(attester.address, 1n, stranger.address))
          .to.be.revertedWithCustomError(registry, "OwnableUnauthorizedAccount")
          .withArgs(stranger.address);
      });

      it("reverts with ZeroAmount for a zero amount", async function () {
        const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.slash(attester.address, 0n, stranger.address)).to.be.revertedWithCustomError(
          registry,
          "ZeroAmount",
        );
      });

      it("reverts with ZeroAddress for a zero recipient", async function () {
        const { registry, attester } = await loadFixture(deployRegistryFixture);
        await expect(registry.slash(attester.address, 1n, ZERO_ADDRESS)).to.be.revertedWithCustomError(
          registry,
          "ZeroAddress",
        );
      });

      it("reverts with NotRegistered for a key without a record", async function () {
        const { registry, unregistered, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.slash(unregistered.address, 1n, stranger.address))
          .to.be.revertedWithCustomError(registry, "NotRegistered")
          .withArgs(unregistered.address);
      });

      it("reverts with SlashExceedsBond one wei above the bond", async function () {
        const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.slash(attester.address, MIN_BOND + 1n, stranger.address))
          .to.be.revertedWithCustomError(registry, "SlashExceedsBond")
          .withArgs(attester.address, MIN_BOND + 1n, MIN_BOND);
      });

      it("reverts with TransferFailed when the recipient rejects ether", async function () {
        const { registry, attester, malicious } = await loadFixture(registryWithHarnessesFixture);
        await malicious.setMode(REJECT);
        await expect(registry.slash(attester.address, 1n, await malicious.getAddress()))
          .to.be.revertedWithCustomError(registry, "TransferFailed")
          .withArgs(await malicious.getAddress(), 1n);
      });
    });

    describe("events", function () {
      it("emits Slashed with the attester, recipient, amount and the bond left", async function () {
        const { registry, attester, stranger } = await loadFixture(deployRegistryFixture);
        await expect(registry.slash(attester.address, 10n, stranger.address))
          .to.emit(registry, "Slashed")
          .withArgs(attester.address, stranger.address, 10n, MIN_BOND - 10n);
      });
    });
  });

  describe("revoke", function () {
    it("revokes the caller's digest and sets its has-revoked flag", async function () {
      const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
      const d = digest(attestation);
      await registry.connect(attester).revoke(d);
      expect(await registry.isRevoked(attester.address, d)).to.equal(true);
      expect((await registry.getAttester(attester.address)).hasRevoked).to.equal(true);
    });

    it("keys the revocation by the caller: a stranger's revoke of the same digest changes nothing for the attester", async function () {
      const { registry, attester, stranger, attestation, signature, digest } = await loadFixture(deployRegistryFixture);
      const d = digest(attestation);
      await registry.connect(stranger).revoke(d);
      expect(await registry.isRevoked(stranger.address, d)).to.equal(true);
      expect(await registry.isRevoked(attester.address, d)).to.equal(false);
      expect((await registry.getAttester(attester.address)).hasRevoked).to.equal(false);
      await expectVerify(registry, attestation, signature, true, attester.address);
    });

    describe("validations", function () {
      it("reverts with AlreadyRevoked when the caller revoked the digest before", async function () {
        const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
        const d = digest(attestation);
        await registry.connect(attester).revoke(d);
        await expect(registry.connect(attester).revoke(d))
          .to.be.revertedWithCustomError(registry, "AlreadyRevoked")
          .withArgs(attester.address, d);
      });
    });

    describe("events", function () {
      it("emits Revoked with the caller and digest", async function () {
        const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
        const d = digest(attestation);
        await expect(registry.connect(attester).revoke(d)).to.emit(registry, "Revoked").withArgs(attester.address, d);
      });
    });
  });

  describe("revokeBatch", function () {
    it("revokes every digest in the batch", async function () {
      const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
      const ds = [1n, 2n, 3n].map((i) => digest({ ...attestation, issuedAt: i }));
      await registry.connect(attester).revokeBatch(ds);
      for (const d of ds) expect(await registry.isRevoked(attester.address, d)).to.equal(true);
      expect((await registry.getAttester(attester.address)).hasRevoked).to.equal(true);
    });

    it("does nothing for an empty batch (the has-revoked flag stays off)", async function () {
      const { registry, attester } = await loadFixture(deployRegistryFixture);
      await expect(registry.connect(attester).revokeBatch([])).not.to.emit(registry, "Revoked");
      expect((await registry.getAttester(attester.address)).hasRevoked).to.equal(false);
    });

    describe("validations", function () {
      it("reverts with AlreadyRevoked on a digest revoked before, revoking none of the batch", async function () {
        const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
        const [d1, d2] = [1n, 2n].map((i) => digest({ ...attestation, issuedAt: i }));
        await registry.connect(attester).revoke(d2);
        await expect(registry.connect(attester).revokeBatch([d1, d2]))
          .to.be.revertedWithCustomError(registry, "AlreadyRevoked")
          .withArgs(attester.address, d2);
        expect(await registry.isRevoked(attester.address, d1)).to.equal(false);
      });

      it("reverts with AlreadyRevoked on a digest repeated within the batch", async function () {
        const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
        const d = digest(attestation);
        await expect(registry.connect(attester).revokeBatch([d, d]))
          .to.be.revertedWithCustomError(registry, "AlreadyRevoked")
          .withArgs(attester.address, d);
      });
    });

    describe("events", function () {
      it("emits Revoked once per digest, in order", async function () {
        const { registry, attester, attestation, digest } = await loadFixture(deployRegistryFixture);
        const [d1, d2] = [1n, 2n].map((i) => digest({ ...attestation, issuedAt: i }));
        const tx = registry.connect(attester).revokeBatch([d1, d2]);
        await expect(tx).to.emit(registry, "Revoked").withArgs(attester.address, d1);
        await expect(tx).to.emit(registry, "Revoked").withArgs(attester.address, d2);
        const receipt = await (await tx).wait();
        expect(receipt!.logs.map((l) => l.topics[2])).to.deep.equal([d1, d2]);
      });
    });
  });

  describe("verify", function () {
    it("is valid for a registered attester's signature and returns the attester", async function () {
      const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
      await expectVerify(registry, attestation, signature, true, attester.address);
    });

    describe("expiry (on chain: block.timestamp <= expiresAt)", function () {
      it("is valid in a block whose timestamp equals expiresAt", async function () {
        const { caller, registryAddress, attester, attestation, signature } =
          await loadFixture(registryWithHarnessesFixture);
        await time.setNextBlockTimestamp(attestation.expiresAt);
        await expect(caller.check(registryAddress, attestation, signature))
          .to.emit(caller, "Measured")
          .withArgs(0n, 0n, true, attester.address);
      });

      it("is not valid in a block one second after expiresAt", async function () {
        const { caller, registryAddress, attester, attestation, signature } =
          await loadFixture(registryWithHarnessesFixture);
        await time.setNextBlockTimestamp(attestation.expiresAt + 1n);
        await expect(caller.check(registryAddress, attestation, signature))
          .to.emit(caller, "Measured")
          .withArgs(0n, 0n, false, attester.address);
      });
    });

    describe("bond", function () {
      it("is valid with a bond of exactly minBond and not valid one wei below (after a slash)", async function () {
        const { registry, attester, stranger, attestation, signature } = await loadFixture(deployRegistryFixture);
        expect((await registry.getAttester(attester.address)).bond).to.equal(MIN_BOND);
        await expectVerify(registry, attestation, signature, true, attester.address);
        await registry.slash(attester.address, 1n, stranger.address);
        await expectVerify(registry, attestation, signature, false, attester.address);
      });
    });

    describe("registration state", function () {
      it("is false at once after requestUnbond", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        await expectVerify(registry, attestation, signature, false, attester.address);
      });

      it("is false at once after deregister", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).deregister();
        await expectVerify(registry, attestation, signature, false, attester.address);
      });

      it("is false at once after removeAttester", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        await registry.removeAttester(attester.address);
        await expectVerify(registry, attestation, signature, false, attester.address);
      });

      it("is false after withdraw", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).requestUnbond();
        await time.increase(UNBONDING_PERIOD);
        await registry.connect(attester).withdraw();
        await expectVerify(registry, attestation, signature, false, attester.address);
      });

      it("returns the recovered signer, not valid, for a well-formed signature from an unregistered key", async function () {
        const { registry, unregistered, attestation, sign } = await loadFixture(deployRegistryFixture);
        await expectVerify(
          registry,
          attestation,
          await sign(attestation, UNREGISTERED_KEY),
          false,
          unregistered.address,
        );
      });
    });

    describe("revocation", function () {
      it("is false for a digest the attester revoked, and other digests stay valid", async function () {
        const { registry, attester, attestation, signature, sign, digest } = await loadFixture(deployRegistryFixture);
        await registry.connect(attester).revoke(digest(attestation));
        await expectVerify(registry, attestation, signature, false, attester.address);
        const other = { ...attestation, confidence: 90 };
        await expectVerify(registry, other, await sign(other), true, attester.address);
      });

      it("ignores a stranger's revocation of the same digest", async function () {
        const { registry, attester, secondAttester, beneficiary, attestation, signature, digest } =
          await loadFixture(deployRegistryFixture);
        // Even a registered attester cannot revoke another's digest.
        await registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND });
        await registry.connect(secondAttester).revoke(digest(attestation));
        await expectVerify(registry, attestation, signature, true, attester.address);
      });
    });

    describe("replay protection (domain bound to chain and contract)", function () {
      it("does not accept a signature made for another registry address", async function () {
        const { registry, owner, attester, beneficiary, attestation, chainId } =
          await loadFixture(deployRegistryFixture);
        const other = await new AttestationRegistry__factory(owner).deploy(owner.address, MIN_BOND, UNBONDING_PERIOD);
        await other.connect(attester).register(beneficiary.address, { value: MIN_BOND });
        const otherSignature = await signAttestation(
          ATTESTER_KEY,
          registryDomain(chainId, (await other.getAddress()) as `0x${string}`),
          attestation,
        );
        await expectVerify(other, attestation, otherSignature, true, attester.address);
        const [valid, recovered] = await registry.verify(attestation, otherSignature);
        expect(valid).to.equal(false);
        expect(recovered).to.not.equal(attester.address);
      });

      it("does not accept a signature made for another chain id", async function () {
        const { registry, registryAddress, attester, attestation } = await loadFixture(deployRegistryFixture);
        const foreign = await signAttestation(ATTESTER_KEY, registryDomain(1n, registryAddress), attestation);
        const [valid, recovered] = await registry.verify(attestation, foreign);
        expect(valid).to.equal(false);
        expect(recovered).to.not.equal(attester.address);
      });

      it("does not accept a signature over different fields", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        for (const tampered of [
          { ...attestation, chainId: 1n },
          { ...attestation, pool: "0x2222222222222222222222222222222222222222" as const },
          { ...attestation, confidence: 86 },
          { ...attestation, horizonDays: 31 },
          { ...attestation, issuedAt: attestation.issuedAt - 1n },
          { ...attestation, expiresAt: attestation.expiresAt + 1n },
        ]) {
          const [valid, recovered] = await registry.verify(tampered, signature);
          expect(valid).to.equal(false);
          expect(recovered).to.not.equal(attester.address);
        }
      });
    });

    describe("malformed signatures give (false, address(0))", function () {
      const cases: [string, (sig: Hex) => string][] = [
        ["an empty signature", () => "0x"],
        ["a 64-byte (EIP-2098 compact) signature", (sig) => toCompact(sig)],
        ["a 66-byte signature (one trailing byte)", (sig) => `${sig}00`],
        ["65 zero bytes", () => `0x${"00".repeat(65)}`],
        ["v = 0", (sig) => joinSignature({ ...splitSignature(sig), v: 0 })],
        ["v = 1", (sig) => joinSignature({ ...splitSignature(sig), v: 1 })],
        ["v = 29", (sig) => joinSignature({ ...splitSignature(sig), v: 29 })],
        ["a high-s signature (the malleable twin)", (sig) => toHighS(sig)],
        ["r = 0", (sig) => joinSignature({ ...splitSignature(sig), r: 0n })],
        ["s = 0", (sig) => joinSignature({ ...splitSignature(sig), s: 0n })],
        ["r >= n", (sig) => joinSignature({ ...splitSignature(sig), r: SECP256K1_N })],
      ];
      for (const [name, mutate] of cases) {
        it(`returns (false, address(0)) for ${name}`, async function () {
          const { registry, attestation, signature } = await loadFixture(deployRegistryFixture);
          await expectVerify(registry, attestation, mutate(signature), false, ZERO_ADDRESS);
        });
      }

      describe("low-s boundary (s <= n/2 is accepted)", function () {
        const HALF_N = SECP256K1_N / 2n;
        for (const v of [27, 28]) {
          it(`accepts s = n/2 with v = ${v}: recovers the same non-zero address as viem`, async function () {
            const { registry, attestation, signature, digest } = await loadFixture(deployRegistryFixture);
            // A real r (an x coordinate on the curve), so both parities recover.
            const boundary = joinSignature({ r: splitSignature(signature).r, s: HALF_N, v });
            const expected = await recoverAddress({ hash: digest(attestation) as Hex, signature: boundary as Hex });
            expect(expected).to.not.equal(ZERO_ADDRESS);
            // Accepted by the signature checks; false only because that key is not registered.
            await expectVerify(registry, attestation, boundary, false, expected);
          });

          it(`rejects s = n/2 + 1 with v = ${v}: (false, address(0))`, async function () {
            const { registry, attestation, signature } = await loadFixture(deployRegistryFixture);
            const above = joinSignature({ r: splitSignature(signature).r, s: HALF_N + 1n, v });
            await expectVerify(registry, attestation, above, false, ZERO_ADDRESS);
          });
        }
      });

      it("accepts the low-s original whose high-s twin is rejected", async function () {
        const { registry, attester, attestation, signature } = await loadFixture(deployRegistryFixture);
        expect(splitSignature(signature).s <= SECP256K1_N / 2n).to.equal(true);
        await expectVerify(registry, attestation, signature, true, attester.address);
      });
    });

    describe("malformed attestation words (bits above a field's width) give (false, address(0))", function () {
      it("computes raw-word digests that match hashAttestation for clean words (the helper below is sound)", async function () {
        const { registry, domain, attestation } = await loadFixture(deployRegistryFixture);
        expect(rawWordsDigest(domain, attestationWords(attestation))).to.equal(
          await registry.hashAttestation(attestation),
        );
      });

      for (const { field, index, width } of NARROW_FIELDS) {
        it(`returns (false, address(0)) for a dirty ${field} word, even when the registered key signed that raw digest`, async function () {
          const { registry, registryAddress, domain, attestation } = await loadFixture(deployRegistryFixture);
          // The lowest dirty bit pins the width; the top bit pins the whole word.
          for (const bit of [BigInt(width), 255n]) {
            const words = attestationWords(attestation);
            words[index] |= 1n << bit;
            // A key that signs raw digests (e.g. a KMS signing hashAttestation-style output) signs the dirty words.
            const signature = await privateKeyToAccount(ATTESTER_KEY).sign({ hash: rawWordsDigest(domain, words) });
            const clean = registry.interface.encodeFunctionData("verify", [attestation, signature]) as Hex;
            const data = replaceArgumentWord(clean, index, words[index]);
            const result = await ethers.provider.call({ to: registryAddress, data });
            const [valid, recovered] = registry.interface.decodeFunctionResult("verify", result);
            expect(recovered, `bit ${bit}`).to.equal(ZERO_ADDRESS);
            expect(valid, `bit ${bit}`).to.equal(false);
          }
        });
      }

      it("accepts every narrow field at its maximum (2^width - 1)", async function () {
        const { registry, attester, attestation, sign } = await loadFixture(deployRegistryFixture);
        const max: AttestationStruct = {
          ...attestation,
          pool: "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF",
          confidence: 0xffff,
          horizonDays: 0xffffffff,
          issuedAt: (1n << 64n) - 1n,
          expiresAt: (1n << 64n) - 1n,
        };
        await expectVerify(registry, max, await sign(max), true, attester.address);
      });
    });

    it("is still valid for an attester that revoked other digests (reads the revocation mapping)", async function () {
      const { registry, attester, attestation, signature, digest } = await loadFixture(deployRegistryFixture);
      await registry.connect(attester).revoke(digest({ ...attestation, issuedAt: 1n }));
      await expectVerify(registry, attestation, signature, true, attester.address);
    });

    it("gives the same result through a calling contract, cold and warm", async function () {
      const { caller, registryAddress, attester, attestation, signature } =
        await loadFixture(registryWithHarnessesFixture);
      const result = await caller.measure.staticCall(registryAddress, attestation, signature);
      expect(result.valid).to.equal(true);
      expect(result.attester).to.equal(attester.address);
      expect(result.cold > result.warm).to.equal(true);
    });
  });

  describe("hashAttestation", function () {
    it("equals viem's hashTypedData under the registry's domain", async function () {
      const { registry, attestation, domain } = await loadFixture(deployRegistryFixture);
      expect(await registry.hashAttestation(attestation)).to.equal(attestationDigest(domain, attestation));
    });

    it("matches the EIP-712 domain that eip712Domain() reports", async function () {
      const { registry, attestation } = await loadFixture(deployRegistryFixture);
      expect(await registry.hashAttestation(attestation)).to.equal(
        attestationDigest(await domainOf(registry), attestation),
      );
    });

    describe("validations", function () {
      for (const { field, index, width } of NARROW_FIELDS) {
        it(`reverts with MalformedAttestation for a dirty ${field} word (bit ${width} or bit 255 set)`, async function () {
          const { registry, registryAddress, attestation } = await loadFixture(deployRegistryFixture);
          for (const bit of [BigInt(width), 255n]) {
            const words = attestationWords(attestation);
            const clean = registry.interface.encodeFunctionData("hashAttestation", [attestation]) as Hex;
            const data = replaceArgumentWord(clean, index, words[index] | (1n << bit));
            await expect(ethers.provider.call({ to: registryAddress, data })).to.be.revertedWithCustomError(
              registry,
              "MalformedAttestation",
            );
          }
        });
      }

      it("accepts every narrow field at its maximum (2^width - 1)", async function () {
        const { registry, attestation, domain } = await loadFixture(deployRegistryFixture);
        const max: AttestationStruct = {
          ...attestation,
          pool: "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF",
          confidence: 0xffff,
          horizonDays: 0xffffffff,
          issuedAt: (1n << 64n) - 1n,
          expiresAt: (1n << 64n) - 1n,
        };
        expect(await registry.hashAttestation(max)).to.equal(attestationDigest(domain, max));
      });
    });
  });

  describe("getAttester and isRevoked", function () {
    it("return an all-zero record and false for an unknown key", async function () {
      const { registry, unregistered } = await loadFixture(deployRegistryFixture);
      const info = await registry.getAttester(unregistered.address);
      expect([info.registered, info.unbonding, info.hasRevoked]).to.deep.equal([false, false, false]);
      expect([info.bond, info.withdrawableAt]).to.deep.equal([0n, 0n]);
      expect(info.beneficiary).to.equal(ZERO_ADDRESS);
      expect(await registry.isRevoked(unregistered.address, ethers.ZeroHash)).to.equal(false);
    });
  });

  describe("ownership (Ownable2Step)", function () {
    it("transfers ownership only when the new owner accepts", async function () {
      const { registry, owner, newOwner } = await loadFixture(deployRegistryFixture);
      await expect(registry.transferOwnership(newOwner.address))
        .to.emit(registry, "OwnershipTransferStarted")
        .withArgs(owner.address, newOwner.address);
      expect(await registry.owner()).to.equal(owner.address);
      await expect(registry.connect(newOwner).acceptOwnership())
        .to.emit(registry, "OwnershipTransferred")
        .withArgs(owner.address, newOwner.address);
      expect(await registry.owner()).to.equal(newOwner.address);
    });

    it("reverts with OwnableUnauthorizedAccount when anyone but the pending owner accepts", async function () {
      const { registry, newOwner, stranger } = await loadFixture(deployRegistryFixture);
      await registry.transferOwnership(newOwner.address);
      await expect(registry.connect(stranger).acceptOwnership())
        .to.be.revertedWithCustomError(registry, "OwnableUnauthorizedAccount")
        .withArgs(stranger.address);
    });

    it("reverts with OwnableUnauthorizedAccount when anyone but the owner transfers ownership", async function () {
      const { registry, stranger } = await loadFixture(deployRegistryFixture);
      await expect(registry.connect(stranger).transferOwnership(stranger.address))
        .to.be.revertedWithCustomError(registry, "OwnableUnauthorizedAccount")
        .withArgs(stranger.address);
    });
  });
});

/** The EIP-712 domain as the contract reports it through ERC-5267. */
async function domainOf(registry: AttestationRegistry) {
  const d = await registry.eip712Domain();
  return registryDomain(d.chainId, d.verifyingContract as `0x${string}`);
}
