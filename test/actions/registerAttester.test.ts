import { expect } from "chai";
import { parseEther, zeroAddress } from "viem";

import { getAttesterStatus } from "../../src/actions/getAttesterStatus";
import { registerAttester } from "../../src/actions/registerAttester";
import { AlreadyRegisteredError, BondTooLowError, ZeroAddressError } from "../../src/errors/registry";
import { InsufficientFundsError, RegistryNotDeployedError } from "../../src/errors/rpc";
import { loadActionsFixture, MIN_BOND } from "../helpers/actionsFixture";

describe("registerAttester", function () {
  it("registers the wallet's key with its bond and returns the hash, receipt and resulting state", async function () {
    const { publicClient, attesterWallet, otherWallet, registry } = await loadActionsFixture();
    const result = await registerAttester({
      publicClient,
      walletClient: attesterWallet,
      registry,
      bond: parseEther("1.5"),
      beneficiary: otherWallet.account.address,
    });
    expect(result.hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(result.receipt.status).to.equal("success");
    expect(result.receipt.transactionHash).to.equal(result.hash);
    expect(result.state).to.include({
      attester: attesterWallet.account.address,
      registered: true,
      unbonding: false,
      active: true,
      withdrawable: false,
      bond: parseEther("1.5"),
      beneficiary: otherWallet.account.address,
      minBond: MIN_BOND,
      withdrawableAt: null,
    });
    expect(result.state.blockNumber).to.equal(result.receipt.blockNumber);
  });

  it("defaults the beneficiary to the attester key", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    const { state } = await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    expect(state.beneficiary).to.equal(attesterWallet.account.address);
  });

  describe("validations", function () {
    it("throws BondTooLowError with both amounts and the fix", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry,
        bond: parseEther("0.5"),
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(BondTooLowError);
      expect((error as BondTooLowError).bond).to.equal(parseEther("0.5"));
      expect((error as BondTooLowError).minBond).to.equal(MIN_BOND);
      expect((error as BondTooLowError).code).to.equal("BOND_TOO_LOW");
      expect((error as BondTooLowError).shortMessage).to.equal(
        "bond 0.5 ETH is below the registry minimum 1 ETH: send at least 1 ETH",
      );
      const status = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address });
      expect(status.registered).to.equal(false);
    });

    it("throws AlreadyRegisteredError for a key that is registered", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry,
        bond: MIN_BOND,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AlreadyRegisteredError);
      expect((error as AlreadyRegisteredError).attester).to.equal(attesterWallet.account.address);
    });

    it("throws ZeroAddressError for a zero beneficiary", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry,
        bond: MIN_BOND,
        beneficiary: zeroAddress,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ZeroAddressError);
    });

    it("throws InsufficientFundsError naming the balance when the bond exceeds it", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      const balance = await publicClient.getBalance({ address: attesterWallet.account.address });
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry,
        bond: balance + 1n,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InsufficientFundsError);
      expect((error as InsufficientFundsError).balance).to.equal(balance);
      expect((error as InsufficientFundsError).account).to.equal(attesterWallet.account.address);
    });

    it("throws RegistryNotDeployedError, sending nothing, when the address holds no code", async function () {
      const { publicClient, attesterWallet, otherWallet } = await loadActionsFixture();
      const before = await publicClient.getBalance({ address: otherWallet.account.address });
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry: otherWallet.account.address,
        bond: MIN_BOND,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(RegistryNotDeployedError);
      expect((error as RegistryNotDeployedError).chainId).to.equal(31337);
      expect(await publicClient.getBalance({ address: otherWallet.account.address })).to.equal(before);
    });
  });
});
