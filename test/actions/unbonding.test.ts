import { time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import { parseEther } from "viem";

import { deregisterAttester } from "../../src/actions/deregisterAttester";
import { registerAttester } from "../../src/actions/registerAttester";
import { requestUnbond } from "../../src/actions/requestUnbond";
import { withdrawBond } from "../../src/actions/withdrawBond";
import {
  AlreadyRegisteredError,
  AlreadyUnbondingError,
  NotRegisteredError,
  NotUnbondingError,
  UnbondingNotElapsedError,
} from "../../src/errors/registry";
import { loadActionsFixture, MIN_BOND, UNBONDING_PERIOD } from "../helpers/actionsFixture";

describe("requestUnbond", function () {
  it("stops the attester backing anything and sets withdrawableAt to block time + the period", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { receipt, state } = await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(state).to.include({ registered: true, unbonding: true, active: false, withdrawable: false, bond: MIN_BOND });
    expect(state.withdrawableAt).to.equal(block.timestamp + UNBONDING_PERIOD);
  });

  describe("validations", function () {
    it("throws NotRegisteredError for a key that never registered", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      const error = await requestUnbond({ publicClient, walletClient: attesterWallet, registry }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NotRegisteredError);
    });

    it("throws AlreadyUnbondingError on a second request", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
      const error = await requestUnbond({ publicClient, walletClient: attesterWallet, registry }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(AlreadyUnbondingError);
    });
  });
});

describe("deregisterAttester", function () {
  it("deregisters the key and starts unbonding", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { state } = await deregisterAttester({ publicClient, walletClient: attesterWallet, registry });
    expect(state).to.include({ registered: false, unbonding: true, active: false, bond: MIN_BOND });
    expect(state.withdrawableAt).to.equal(state.timestamp + UNBONDING_PERIOD);
  });

  it("throws NotRegisteredError for an unregistered key", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    const error = await deregisterAttester({ publicClient, walletClient: attesterWallet, registry }).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NotRegisteredError);
  });
});

describe("withdrawBond", function () {
  it("sends the whole bond to the beneficiary after the period and clears the record", async function () {
    const { publicClient, attesterWallet, otherWallet, registry } = await loadActionsFixture();
    const beneficiary = otherWallet.account.address;
    await registerAttester({
      publicClient,
      walletClient: attesterWallet,
      registry,
      bond: parseEther("3"),
      beneficiary,
    });
    const { state: unbonding } = await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
    await time.increaseTo(unbonding.withdrawableAt!);
    const before = await publicClient.getBalance({ address: beneficiary });
    const { receipt, state } = await withdrawBond({ publicClient, walletClient: attesterWallet, registry });
    expect(receipt.status).to.equal("success");
    expect(await publicClient.getBalance({ address: beneficiary })).to.equal(before + parseEther("3"));
    expect(state).to.include({ registered: false, unbonding: false, bond: 0n, active: false, withdrawable: false });
    expect(state.withdrawableAt).to.equal(null);
    // The key may register again once the record is cleared.
    const again = await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    expect(again.state.active).to.equal(true);
  });

  it("reports withdrawable once the chain time reaches withdrawableAt", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { state } = await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
    await time.increaseTo(state.withdrawableAt!);
    const { getAttesterStatus } = await import("../../src/actions/getAttesterStatus");
    const now = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address });
    expect(now.withdrawable).to.equal(true);
  });

  describe("validations", function () {
    it("throws UnbondingNotElapsedError with withdrawableAt and the chain time before the delay", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      const { state } = await requestUnbond({ publicClient, walletClient: attesterWallet, registry });
      const error = await withdrawBond({ publicClient, walletClient: attesterWallet, registry }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(UnbondingNotElapsedError);
      const typed = error as UnbondingNotElapsedError;
      expect(typed.withdrawableAt).to.equal(state.withdrawableAt);
      expect(typed.currentTime < typed.withdrawableAt).to.equal(true);
      const iso = new Date(Number(state.withdrawableAt) * 1000).toISOString().replace(".000Z", "Z");
      expect(typed.shortMessage).to.contain(`not withdrawable until ${iso}`);
    });

    it("throws NotUnbondingError for a registered attester that has not asked to unbond", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      const error = await withdrawBond({ publicClient, walletClient: attesterWallet, registry }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NotUnbondingError);
    });

    it("throws NotRegisteredError for a key with no record", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      const error = await withdrawBond({ publicClient, walletClient: attesterWallet, registry }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NotRegisteredError);
    });

    it("keeps a key with a pending bond from registering again (AlreadyRegisteredError)", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
      await deregisterAttester({ publicClient, walletClient: attesterWallet, registry });
      const error = await registerAttester({
        publicClient,
        walletClient: attesterWallet,
        registry,
        bond: MIN_BOND,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AlreadyRegisteredError);
    });
  });
});
