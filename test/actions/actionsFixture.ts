import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import hre from "hardhat";
import { createPublicClient, createWalletClient, custom, getAddress, type Address, type Hex } from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { hardhat } from "viem/chains";

import { AttestationRegistryModule } from "../../ignition/modules/AttestationRegistry";
import type { RegistryPublicClient, RegistryWalletClient } from "../../src/actions/types";

/** Registry parameters used by the action and CLI tests. */
export const MIN_BOND = 10n ** 18n;
export const UNBONDING_PERIOD = 7n * 24n * 60n * 60n;

/** Hardhat's funded account `index`, as a viem account (keys come from the network's mnemonic). */
export function hardhatAccount(index: number): HDAccount {
  const accounts = hre.network.config.accounts as { mnemonic: string; path: string; passphrase?: string };
  return mnemonicToAccount(accounts.mnemonic, {
    addressIndex: index,
    ...(accounts.passphrase ? { passphrase: accounts.passphrase } : {}),
  });
}

/** The private key of Hardhat's funded account `index`. */
export function hardhatPrivateKey(index: number): Hex {
  const key = hardhatAccount(index).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for account ${index}`);
  return `0x${Buffer.from(key).toString("hex")}`;
}

/** A wallet client over the in-process network for Hardhat account `index`. */
export function walletFor(index: number): RegistryWalletClient {
  return createWalletClient({
    account: hardhatAccount(index),
    chain: hardhat,
    transport: custom(hre.network.provider, { retryCount: 0 }),
  });
}

/** Deploys a fresh registry (owner = account 0) through the Ignition module; viem clients over the provider. */
async function deployActionsFixture() {
  const owner = hardhatAccount(0);
  const deployed = await hre.ignition.deploy(AttestationRegistryModule, {
    parameters: {
      AttestationRegistryModule: { owner: owner.address, minBond: MIN_BOND, unbondingPeriod: UNBONDING_PERIOD },
    },
  });
  const registry = getAddress(await deployed.registry.getAddress()) as Address;
  const publicClient: RegistryPublicClient = createPublicClient({
    chain: hardhat,
    transport: custom(hre.network.provider, { retryCount: 0 }),
  });
  return {
    registry,
    publicClient,
    /** Account 1: the attester key. */
    attesterWallet: walletFor(1),
    /** Account 2: a third party (payer, beneficiary). */
    otherWallet: walletFor(2),
  };
}

/** Loads the shared registry deployment from a snapshot. */
export function loadActionsFixture() {
  return loadFixture(deployActionsFixture);
}
