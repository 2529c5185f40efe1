import type { Account, Chain, Hash, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";

import type { GetAttesterStatusReturnType } from "./getAttesterStatus";

/** A viem public client on the registry's chain (any transport). */
export type RegistryPublicClient = PublicClient<Transport, Chain | undefined>;

/** A viem wallet client with an account: the attester key (or, for `addBond`, any payer). */
export type RegistryWalletClient = WalletClient<Transport, Chain | undefined, Account>;

/** What every registry write returns: the transaction, its receipt and the attester's state after it. */
export type RegistryWriteReturnType = {
  hash: Hash;
  receipt: TransactionReceipt;
  state: GetAttesterStatusReturnType;
};
