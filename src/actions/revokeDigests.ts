import type { Address, Hash } from "viem";

import type { RegistryErrorType } from "../errors/registry";
import { InvalidDigestError, type RpcErrorType } from "../errors/rpc";
import { getAttesterStatus } from "./getAttesterStatus";
import { assertDigest } from "./internal/assertDigest";
import { writeRegistry } from "./internal/writeRegistry";
import type { RegistryPublicClient, RegistryWalletClient, RegistryWriteReturnType } from "./types";

export type RevokeDigestsParameters = {
  /** A public client on the registry's chain. */
  publicClient: RegistryPublicClient;
  /** A wallet client whose account is the attester key (only its own digests can be revoked). */
  walletClient: RegistryWalletClient;
  /** The registry address. */
  registry: Address;
  /** One or more EIP-712 digests (`hashAttestation`). Repeats are revoked once. */
  digests: Hash | readonly Hash[];
};

export type RevokeDigestsReturnType = RegistryWriteReturnType & {
  /** The digests revoked, lower-cased, without repeats, in the order given. */
  digests: Hash[];
};

export type RevokeDigestsErrorType = RegistryErrorType | RpcErrorType | Error;

/**
 * Revokes one or more of the wallet's account's own digests: `revoke(digest)` for one, `revokeBatch(digests)` for
 * several. Fails with `AlreadyRevokedError` (naming the digest) if any is already revoked; nothing is revoked then.
 *
 * @param parameters - {@link RevokeDigestsParameters}
 * @returns The transaction hash, its receipt, the attester's state and the digests. {@link RevokeDigestsReturnType}
 *
 * @example
 * import { revokeDigests } from "./actions/revokeDigests";
 *
 * const { hash } = await revokeDigests({ publicClient, walletClient, registry, digests: [digestA, digestB] });
 */
export async function revokeDigests({
  publicClient,
  walletClient,
  registry,
  digests,
}: RevokeDigestsParameters): Promise<RevokeDigestsReturnType> {
  const list: readonly unknown[] = typeof digests === "string" ? [digests] : digests;
  if (list.length === 0) throw new InvalidDigestError({});
  const unique: Hash[] = [];
  for (const digest of list) {
    assertDigest(digest);
    const lower = digest.toLowerCase() as Hash;
    if (!unique.includes(lower)) unique.push(lower);
  }
  const attester = walletClient.account.address;
  const { hash, receipt } = await writeRegistry({
    publicClient,
    walletClient,
    registry,
    ...(unique.length === 1
      ? { functionName: "revoke" as const, args: [unique[0]] }
      : { functionName: "revokeBatch" as const, args: [unique] }),
  });
  const state = await getAttesterStatus({ publicClient, registry, attester, blockNumber: receipt.blockNumber });
  return { hash, receipt, state, digests: unique };
}
