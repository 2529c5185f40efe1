import { formatEther, type Address, type Hash } from "viem";

import { BaseError } from "./base";
import { redactRpcUrl } from "./utils";

/**
 * What goes wrong around a registry call that is not one of the registry's own reverts (those are `./registry.ts`):
 * the node cannot be reached or answers HTTP errors, the address holds no registry, the account cannot pay, a mined
 * transaction reverted, or an argument (a digest) is refused before any call is made.
 */

const docsPath = "docs/operations.md";

// ------------------------------------------------------------------------------------------------------------------
// Transport: the JSON-RPC endpoint.
// ------------------------------------------------------------------------------------------------------------------

export type RpcUnreachableErrorType = RpcUnreachableError & { name: "RpcUnreachableError" };
/** The JSON-RPC endpoint did not answer (connection refused, unknown host, timeout). */
export class RpcUnreachableError extends BaseError {
  readonly url: string | undefined;
  constructor({ url, reason, cause }: { url?: string; reason?: string; cause?: Error }) {
    const where = url === undefined ? "the RPC endpoint" : `the RPC endpoint ${redactRpcUrl(url)}`;
    super(`cannot reach ${where}${reason ? ` (${reason})` : ""}: check that the node is running and --rpc / RPC_URL`, {
      code: "RPC_UNREACHABLE",
      docsPath,
      name: "RpcUnreachableError",
      ...(cause ? { cause } : {}),
    });
    this.url = url === undefined ? undefined : redactRpcUrl(url);
  }
}

export type RpcHttpErrorType = RpcHttpError & { name: "RpcHttpError" };
/** The endpoint answered, but with an HTTP error status instead of JSON-RPC (wrong URL, auth, rate limit). */
export class RpcHttpError extends BaseError {
  readonly url: string;
  readonly status: number;
  constructor({ url, status, cause }: { url: string; status: number; cause?: Error | undefined }) {
    super(
      `the RPC endpoint ${redactRpcUrl(url)} answered HTTP ${status} instead of JSON-RPC: check that --rpc / RPC_URL is the node's JSON-RPC URL (and its API key, if it needs one)`,
      { code: "RPC_HTTP_ERROR", docsPath, name: "RpcHttpError", ...(cause ? { cause } : {}) },
    );
    this.url = redactRpcUrl(url);
    this.status = status;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Deployment: what is (not) at the registry address.
// ------------------------------------------------------------------------------------------------------------------

export type RegistryNotDeployedErrorType = RegistryNotDeployedError & { name: "RegistryNotDeployedError" };
/** There is no contract code at the registry address on the connected chain. */
export class RegistryNotDeployedError extends BaseError {
  readonly registry: Address;
  readonly chainId: number | undefined;
  constructor({ registry, chainId }: { registry: Address; chainId?: number }) {
    super(
      `no contract at ${registry}${chainId === undefined ? "" : ` on chain ${chainId}`}: check --registry / REGISTRY_ADDRESS and that --rpc / RPC_URL points at the chain it was deployed on`,
      { code: "REGISTRY_NOT_DEPLOYED", docsPath, name: "RegistryNotDeployedError" },
    );
    this.registry = registry;
    this.chainId = chainId;
  }
}

export type NotARegistryErrorType = NotARegistryError & { name: "NotARegistryError" };
/** The address holds a contract, but not an AttestationRegistry (its ERC-5267 domain does not name one). */
export class NotARegistryError extends BaseError {
  readonly registry: Address;
  constructor({ registry, name, cause }: { registry: Address; name?: string | undefined; cause?: Error | undefined }) {
    const found =
      name === undefined ? "it has no EIP-712 domain" : `its EIP-712 domain is ${JSON.stringify(name.slice(0, 40))}`;
    super(`the contract at ${registry} is not an AttestationRegistry (${found}): check --registry / REGISTRY_ADDRESS`, {
      code: "NOT_A_REGISTRY",
      docsPath,
      name: "NotARegistryError",
      ...(cause ? { cause } : {}),
    });
    this.registry = registry;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Sending: the account's funds and the mined transaction.
// ------------------------------------------------------------------------------------------------------------------

export type InsufficientFundsErrorType = InsufficientFundsError & { name: "InsufficientFundsError" };
/** The sending account cannot pay the value plus gas. */
export class InsufficientFundsError extends BaseError {
  readonly account: Address;
  readonly value: bigint;
  readonly balance: bigint | undefined;
  constructor({
    account,
    value,
    balance,
    cause,
  }: {
    account: Address;
    value: bigint;
    balance?: bigint;
    cause?: Error;
  }) {
    const has = balance === undefined ? "" : ` has ${formatEther(balance)} ETH, which`;
    super(`account ${account}${has} cannot pay ${formatEther(value)} ETH plus gas: fund it or send less`, {
      code: "INSUFFICIENT_FUNDS",
      docsPath,
      name: "InsufficientFundsError",
      ...(cause ? { cause } : {}),
    });
    this.account = account;
    this.value = value;
    this.balance = balance;
  }
}

export type RegistryTransactionRevertedErrorType = RegistryTransactionRevertedError & {
  name: "RegistryTransactionRevertedError";
};
/** The transaction was mined but reverted (the state changed between simulation and inclusion). */
export class RegistryTransactionRevertedError extends BaseError {
  readonly hash: Hash;
  constructor({ hash }: { hash: Hash }) {
    super(`transaction ${hash} reverted on chain: run "attest status" to see the attester's state, then retry`, {
      code: "TRANSACTION_REVERTED",
      docsPath,
      name: "RegistryTransactionRevertedError",
    });
    this.hash = hash;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Arguments checked before any call.
// ------------------------------------------------------------------------------------------------------------------

export type InvalidDigestErrorType = InvalidDigestError & { name: "InvalidDigestError" };
/** A digest to revoke is not 32 bytes of hex, or the list is empty. */
export class InvalidDigestError extends BaseError {
  readonly digest: string | undefined;
  constructor({ digest }: { digest?: string }) {
    super(
      digest === undefined
        ? "no digest to revoke: pass at least one 0x-prefixed 32-byte EIP-712 digest"
        : `digest "${digest.length > 80 ? `${digest.slice(0, 80)}…` : digest}" is not 0x followed by 64 hex digits: pass the EIP-712 digest (see "attest digest")`,
      { code: "INVALID_DIGEST", docsPath, name: "InvalidDigestError" },
    );
    this.digest = digest;
  }
}

/** Every error this domain throws. */
export type RpcErrorType =
  | RpcUnreachableErrorType
  | RpcHttpErrorType
  | RegistryNotDeployedErrorType
  | NotARegistryErrorType
  | InsufficientFundsErrorType
  | RegistryTransactionRevertedErrorType
  | InvalidDigestErrorType;
