import { expect } from "chai";
import hre from "hardhat";
import { createPublicClient, http, parseEther, zeroAddress } from "viem";

import { getAttesterStatus } from "../../src/actions/getAttesterStatus";
import { registerAttester } from "../../src/actions/registerAttester";
import { NotARegistryError, RegistryNotDeployedError, RpcUnreachableError } from "../../src/errors/rpc";
import { startHardhatRpcServer } from "../helpers/hardhatRpcServer";
import { loadActionsFixture, MIN_BOND, UNBONDING_PERIOD } from "../helpers/actionsFixture";

describe("getAttesterStatus", function () {
  it("reports an unknown key as all zero with the registry parameters", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    const status = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address });
    expect(status).to.include({
      registered: false,
      unbonding: false,
      hasRevoked: false,
      bond: 0n,
      beneficiary: zeroAddress,
      withdrawableAt: null,
      minBond: MIN_BOND,
      unbondingPeriod: UNBONDING_PERIOD,
      active: false,
      withdrawable: false,
      registry,
    });
    const block = await publicClient.getBlock();
    expect(status.blockNumber).to.equal(block.number);
    expect(status.timestamp).to.equal(block.timestamp);
  });

  it("reports a registered key whose bond was slashed below the minimum as not active", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const owner = (await hre.ethers.getSigners())[0];
    const contract = await hre.ethers.getContractAt("AttestationRegistry", registry, owner);
    await contract.slash(attesterWallet.account.address, parseEther("0.1"), owner.address);
    const status = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address });
    expect(status).to.include({ registered: true, unbonding: false, active: false, bond: parseEther("0.9") });
  });

  it("reads at a given block", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    const before = await publicClient.getBlockNumber();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const old = await getAttesterStatus({
      publicClient,
      registry,
      attester: attesterWallet.account.address,
      blockNumber: before,
    });
    expect(old.registered).to.equal(false);
    expect(old.blockNumber).to.equal(before);
  });

  it("works over HTTP through the loopback JSON-RPC server", async function () {
    const { attesterWallet, registry } = await loadActionsFixture();
    const rpc = await startHardhatRpcServer();
    try {
      const publicClient = createPublicClient({ transport: http(rpc.url, { retryCount: 0 }) });
      const status = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address });
      expect(status.minBond).to.equal(MIN_BOND);
    } finally {
      await rpc.close();
    }
  });

  describe("validations", function () {
    it("throws RegistryNotDeployedError for an address without code", async function () {
      const { publicClient, attesterWallet } = await loadActionsFixture();
      const error = await getAttesterStatus({
        publicClient,
        registry: attesterWallet.account.address,
        attester: attesterWallet.account.address,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(RegistryNotDeployedError);
      expect((error as RegistryNotDeployedError).registry).to.equal(attesterWallet.account.address);
    });

    it("throws NotARegistryError for a contract that is not a registry, and sends nothing to it", async function () {
      const { publicClient, attesterWallet } = await loadActionsFixture();
      const { registerAttester: register } = await import("../../src/actions/registerAttester");
      // STOP (accepts any call and ether, returns nothing) and PUSH0 PUSH0 REVERT (rejects everything).
      for (const [i, bytecode] of ["0x00", "0x5f5ffd"].entries()) {
        const address = `0x${"ab".repeat(19)}0${i}` as const;
        await hre.network.provider.request({ method: "hardhat_setCode", params: [address, bytecode] });
        const error = await getAttesterStatus({ publicClient, registry: address, attester: address }).catch(
          (e: unknown) => e,
        );
        expect(error, bytecode).to.be.instanceOf(NotARegistryError);
        expect((error as NotARegistryError).shortMessage).to.equal(
          `the contract at ${address} is not an AttestationRegistry (it has no EIP-712 domain): check --registry / REGISTRY_ADDRESS`,
        );
        const writeError = await register({
          publicClient,
          walletClient: attesterWallet,
          registry: address,
          bond: MIN_BOND,
        }).catch((e: unknown) => e);
        expect(writeError, bytecode).to.be.instanceOf(NotARegistryError);
        expect(await publicClient.getBalance({ address })).to.equal(0n);
      }
    });

    it("throws RpcUnreachableError when nothing listens at the RPC URL", async function () {
      const { attesterWallet, registry } = await loadActionsFixture();
      const rpc = await startHardhatRpcServer();
      await rpc.close(); // a port that was just free: connection refused
      const publicClient = createPublicClient({ transport: http(rpc.url, { retryCount: 0 }) });
      const error = await getAttesterStatus({ publicClient, registry, attester: attesterWallet.account.address }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(RpcUnreachableError);
      expect((error as RpcUnreachableError).shortMessage).to.contain(rpc.url);
    });
  });
});
