import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import hre from "hardhat";
import { createPublicClient, createWalletClient, custom, type Hex } from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { hardhat } from "viem/chains";

import type { RegistryPublicClient, RegistryWalletClient } from "../../src/actions/types";
import { deployFixture, MIN_BOND, UNBONDING_PERIOD } from "./registryFixture";

/** Registry parameters used by the action and CLI tests (those of {@link deployFixture}). */
export { MIN_BOND, UNBONDING_PERIOD };

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

/** A fresh registry ({@link deployFixture}: owner = account 0, through the Ignition module); viem clients over the provider. */
async function deployActionsFixture() {
  const { registry } = await deployFixture();
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
