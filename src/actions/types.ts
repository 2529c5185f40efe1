import type { Account, Address, Chain, Hash, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";

/** A viem public client on the registry's chain (any transport). */
export type RegistryPublicClient = PublicClient<Transport, Chain | undefined>;

/** A viem wallet client with an account: the attester key (or, for `addBond`, any payer). */
export type RegistryWalletClient = WalletClient<Transport, Chain | undefined, Account>;

/** What every registry write returns: the transaction, its receipt and the attester's state after it. */
export type RegistryWriteReturnType = {
  hash: Hash;
  receipt: TransactionReceipt;
  state: AttesterState;
};

/**
 * An attester's record plus the registry parameters and chain time needed to act on it: what `getAttesterStatus`
 * returns and every registry write returns as `state`.
 */
export type AttesterState = {
  /** The attester key, checksummed. */
  attester: Address;
  /** The registry address, checksummed. */
  registry: Address;
  /** The block the state was read at, and its timestamp (chain time, Unix seconds). */
  blockNumber: bigint;
  timestamp: bigint;
  /** Whether the key is registered (false after deregistration or withdrawal). */
  registered: boolean;
  /** Whether unbonding was requested or the attester was deregistered: it backs nothing. */
  unbonding: boolean;
  /** Whether the attester has ever revoked a digest. */
  hasRevoked: boolean;
  /** The bond held for the attester, in wei. */
  bond: bigint;
  /** Where a withdrawal sends the bond (zero address when there is no record). */
  beneficiary: Address;
  /** When the bond becomes withdrawable (Unix seconds), or null when not unbonding. */
  withdrawableAt: bigint | null;
  /** The registry's minimum bond, in wei. */
  minBond: bigint;
  /** The registry's unbonding period, in seconds. */
  unbondingPeriod: bigint;
  /** Whether signatures by this key currently verify on chain (registered, not unbonding, bond >= minBond). */
  active: boolean;
  /** Whether `withdraw` would succeed in the next block: unbonding, a bond to send, and the delay over. */
  withdrawable: boolean;
};
