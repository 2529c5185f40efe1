import { expect } from "chai";
import { parseEther } from "viem";

import { addBond } from "../../src/actions/addBond";
import { registerAttester } from "../../src/actions/registerAttester";
import { requestUnbond } from "../../src/actions/requestUnbond";
import { AlreadyUnbondingError, NotRegisteredError, ZeroAmountError } from "../../src/errors/registry";
import { loadActionsFixture, MIN_BOND } from "../helpers/actionsFixture";

describe("addBond", function () {
  it("tops up the wallet's own bond", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { receipt, state } = await addBond({
      publicClient,
      walletClient: attesterWallet,
      registry,
      amount: parseEther("0.25"),
    });
    expect(receipt.status).to.equal("success");
    expect(state.bond).to.equal(MIN_BOND + parseEther("0.25"));
    expect(state.attester).to.equal(attesterWallet.account.address);
  });

  it("lets a third party top up another attester's bond and reports that attester's state", async function () {
    const { publicClient, attesterWallet, otherWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { state } = await addBond({
      publicClient,
      walletClient: otherWallet,
      registry,
      amount: parseEther("2"),
      attester: attesterWallet.account.address,
    });
    expect(state.attester).to.equal(attesterWallet.account.address);
    expect(state.bond).to.equal(MIN_BOND + parseEther("2"));
  });

  describe("validations", function () {
    it("throws NotRegisteredError for an unregistered attester", async function () {
      const { publicClient, otherWallet, attesterWallet, registry } = await loadActionsFixture();
      const error = await addBond({
        publicClient,
        walletClient: otherWallet,
        registry,
        amount: parseEther("1"),
        attester: attesterWallet.account.address,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(NotRegisteredError);
      expect((error as NotRegisteredError).attester).to.equal(attesterWallet.account.address);
      expect((error as NotRegisteredError).shortMessage).to.contain('"attest register --bond <eth>"');
    });

    it("throws ZeroAmountError for a zero top-up", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      const error = await addBond({ publicClient, walletClient: attesterWallet, registry, amount: 0n }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ZeroAmountError);
    });

    it("throws AlreadyUnbondingError with the withdrawal time once unbonding", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      const { state } = await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
      const error = await addBond({ publicClient, walletClient: attesterWallet, registry, amount: 1n }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(AlreadyUnbondingError);
      expect((error as AlreadyUnbondingError).withdrawableAt).to.equal(state.withdrawableAt);
    });
  });
});
