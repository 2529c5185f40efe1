import { formatEther, type Address, type Hash } from "viem";

import { BaseError } from "./base";

/** `1.5` for 1.5 ether: the unit the CLI takes and prints. */
function eth(wei: bigint): string {
  return formatEther(wei);
}

/** `2026-11-25T04:00:00Z` for Unix seconds. */
function isoTime(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15
    ? new Date(ms).toISOString().replace(".000Z", "Z")
    : `unix ${seconds}`;
}

/** `2d 3h 4m 5s` for a positive number of seconds. */
function duration(seconds: bigint): string {
  if (seconds <= 0n) return "0s";
  const parts: string[] = [];
  const units: [bigint, string][] = [
    [86_400n, "d"],
    [3_600n, "h"],
    [60n, "m"],
    [1n, "s"],
  ];
  let rest = seconds;
  for (const [size, suffix] of units) {
    if (rest >= size) {
      parts.push(`${rest / size}${suffix}`);
      rest %= size;
    }
  }
  return parts.join(" ");
}

/** Only scheme, host and port: a provider URL may carry an API key in its path or query. */
export function redactRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname.length > 1 || parsed.search || parsed.username || parsed.password;
    return `${parsed.protocol}//${parsed.host}${hidden ? "/…" : ""}`;
  } catch {
    return "<invalid URL>";
  }
}

const docsPath = "docs/operations.md";

// ------------------------------------------------------------------------------------------------------------------
// The registry's custom errors (contracts/IAttestationRegistry.sol), each with the one-line fix.
// ------------------------------------------------------------------------------------------------------------------

export type BondTooLowErrorType = BondTooLowError & { name: "BondTooLowError" };
/** `BondTooLow(bond, minBond)`: the bond is below the registry minimum. */
export class BondTooLowError extends BaseError {
  readonly bond: bigint;
  readonly minBond: bigint;
  constructor({ bond, minBond }: { bond: bigint; minBond: bigint }) {
    super(
      `bond ${eth(bond)} ETH is below the registry minimum ${eth(minBond)} ETH: send at least ${eth(minBond)} ETH`,
      {
        code: "BOND_TOO_LOW",
        docsPath,
        metaMessages: [`bond:     ${bond} wei`, `minBond:  ${minBond} wei`],
        name: "BondTooLowError",
      },
    );
    this.bond = bond;
    this.minBond = minBond;
  }
}

export type AlreadyRegisteredErrorType = AlreadyRegisteredError & { name: "AlreadyRegisteredError" };
/** `AlreadyRegistered(attester)`: the key already has a record. */
export class AlreadyRegisteredError extends BaseError {
  readonly attester: Address;
  constructor({ attester }: { attester: Address }) {
    super(
      `attester ${attester} is already registered or still has a bond to withdraw: see "attest status"; withdraw it before registering again`,
      { code: "ALREADY_REGISTERED", docsPath, name: "AlreadyRegisteredError" },
    );
    this.attester = attester;
  }
}

export type NotRegisteredErrorType = NotRegisteredError & { name: "NotRegisteredError" };
/** `NotRegistered(attester)`: the key is not registered. */
export class NotRegisteredError extends BaseError {
  readonly attester: Address;
  constructor({ attester }: { attester: Address }) {
    super(`attester ${attester} is not registered: register it first with "attest register --bond <eth>"`, {
      code: "NOT_REGISTERED",
      docsPath,
      name: "NotRegisteredError",
    });
    this.attester = attester;
  }
}

export type AlreadyUnbondingErrorType = AlreadyUnbondingError & { name: "AlreadyUnbondingError" };
/** `AlreadyUnbonding(attester, withdrawableAt)`: unbonding was already requested. */
export class AlreadyUnbondingError extends BaseError {
  readonly attester: Address;
  readonly withdrawableAt: bigint;
  constructor({ attester, withdrawableAt }: { attester: Address; withdrawableAt: bigint }) {
    super(
      `attester ${attester} is already unbonding: its bond becomes withdrawable at ${isoTime(withdrawableAt)}; run "attest withdraw" then`,
      {
        code: "ALREADY_UNBONDING",
        docsPath,
        metaMessages: [`withdrawableAt: ${withdrawableAt} (Unix seconds)`],
        name: "AlreadyUnbondingError",
      },
    );
    this.attester = attester;
    this.withdrawableAt = withdrawableAt;
  }
}

export type NotUnbondingErrorType = NotUnbondingError & { name: "NotUnbondingError" };
/** `NotUnbonding(attester)`: nothing to withdraw until unbonding is requested. */
export class NotUnbondingError extends BaseError {
  readonly attester: Address;
  constructor({ attester }: { attester: Address }) {
    super(
      `attester ${attester} has not requested unbonding, so nothing is withdrawable: run "attest unbond" first and wait for the unbonding period`,
      { code: "NOT_UNBONDING", docsPath, name: "NotUnbondingError" },
    );
    this.attester = attester;
  }
}

export type UnbondingNotElapsedErrorType = UnbondingNotElapsedError & { name: "UnbondingNotElapsedError" };
/** `UnbondingNotElapsed(attester, withdrawableAt, currentTime)`: the delay is still running. */
export class UnbondingNotElapsedError extends BaseError {
  readonly attester: Address;
  readonly withdrawableAt: bigint;
  readonly currentTime: bigint;
  constructor({
    attester,
    withdrawableAt,
    currentTime,
  }: {
    attester: Address;
    withdrawableAt: bigint;
    currentTime: bigint;
  }) {
    super(
      `the bond of ${attester} is not withdrawable until ${isoTime(withdrawableAt)} (${duration(withdrawableAt - currentTime)} from chain time ${isoTime(currentTime)}): run "attest withdraw" again then`,
      {
        code: "UNBONDING_NOT_ELAPSED",
        docsPath,
        metaMessages: [`withdrawableAt: ${withdrawableAt} (Unix seconds)`, `currentTime:    ${currentTime}`],
        name: "UnbondingNotElapsedError",
      },
    );
    this.attester = attester;
    this.withdrawableAt = withdrawableAt;
    this.currentTime = currentTime;
  }
}

export type AlreadyRevokedErrorType = AlreadyRevokedError & { name: "AlreadyRevokedError" };
/** `AlreadyRevoked(attester, digest)`: the digest is already revoked. */
export class AlreadyRevokedError extends BaseError {
  readonly attester: Address;
  readonly digest: Hash;
  constructor({ attester, digest }: { attester: Address; digest: Hash }) {
    super(`digest ${digest} is already revoked by ${attester}: leave it out and retry the others`, {
      code: "ALREADY_REVOKED",
      docsPath,
      name: "AlreadyRevokedError",
    });
    this.attester = attester;
    this.digest = digest;
  }
}

export type ZeroAddressErrorType = ZeroAddressError & { name: "ZeroAddressError" };
/** `ZeroAddress()`: a beneficiary or recipient is the zero address. */
export class ZeroAddressError extends BaseError {
  constructor() {
    super(
      "the beneficiary is the zero address: pass a real --beneficiary address (or leave it out to use the key's own)",
      {
        code: "ZERO_ADDRESS",
        docsPath,
        name: "ZeroAddressError",
      },
    );
  }
}

export type ZeroAmountErrorType = ZeroAmountError & { name: "ZeroAmountError" };
/** `ZeroAmount()`: a payment of zero wei. */
export class ZeroAmountError extends BaseError {
  constructor() {
    super("the amount is zero: send a positive amount of ETH", {
      code: "ZERO_AMOUNT",
      docsPath,
      name: "ZeroAmountError",
    });
  }
}

export type SlashExceedsBondErrorType = SlashExceedsBondError & { name: "SlashExceedsBondError" };
/** `SlashExceedsBond(attester, amount, bond)`. */
export class SlashExceedsBondError extends BaseError {
  readonly attester: Address;
  readonly amount: bigint;
  readonly bond: bigint;
  constructor({ attester, amount, bond }: { attester: Address; amount: bigint; bond: bigint }) {
    super(`slash of ${eth(amount)} ETH exceeds the bond of ${attester} (${eth(bond)} ETH): slash at most the bond`, {
      code: "SLASH_EXCEEDS_BOND",
      docsPath,
      name: "SlashExceedsBondError",
    });
    this.attester = attester;
    this.amount = amount;
    this.bond = bond;
  }
}

export type BondOverflowErrorType = BondOverflowError & { name: "BondOverflowError" };
/** `BondOverflow(bond)`: the bond would not fit in 96 bits. */
export class BondOverflowError extends BaseError {
  readonly bond: bigint;
  constructor({ bond }: { bond: bigint }) {
    super(`bond ${eth(bond)} ETH exceeds what the registry can hold (2^96 - 1 wei): send less`, {
      code: "BOND_OVERFLOW",
      docsPath,
      name: "BondOverflowError",
    });
    this.bond = bond;
  }
}

export type TransferFailedErrorType = TransferFailedError & { name: "TransferFailedError" };
/** `TransferFailed(to, amount)`: the beneficiary refused the ether. */
export class TransferFailedError extends BaseError {
  readonly to: Address;
  readonly amount: bigint;
  constructor({ to, amount }: { to: Address; amount: bigint }) {
    super(
      `sending ${eth(amount)} ETH to ${to} failed: the beneficiary must accept plain ether transfers (an EOA, or a contract with receive())`,
      { code: "TRANSFER_FAILED", docsPath, name: "TransferFailedError" },
    );
    this.to = to;
    this.amount = amount;
  }
}

export type AttesterRemovedErrorType = AttesterRemovedError & { name: "AttesterRemovedError" };
/** `AttesterRemoved(attester)`: the owner removed this key; removal is permanent. */
export class AttesterRemovedError extends BaseError {
  readonly attester: Address;
  constructor({ attester }: { attester: Address }) {
    super(`attester ${attester} was removed by the registry owner and can never register again: register a new key`, {
      code: "ATTESTER_REMOVED",
      docsPath,
      name: "AttesterRemovedError",
    });
    this.attester = attester;
  }
}

export type MalformedAttestationErrorType = MalformedAttestationError & { name: "MalformedAttestationError" };
/** `MalformedAttestation()`: a narrow attestation field has bits above its type's width. */
export class MalformedAttestationError extends BaseError {
  constructor() {
    super(
      "the attestation's encoding has bits above a field's width (pool, confidence, horizonDays, issuedAt or expiresAt): encode it with the ABI types",
      { code: "MALFORMED_ATTESTATION", docsPath, name: "MalformedAttestationError" },
    );
  }
}

export type InvalidMinBondErrorType = InvalidMinBondError & { name: "InvalidMinBondError" };
/** `InvalidMinBond(minBond)`: deployment with a minimum bond of zero or above 2^96 - 1 wei. */
export class InvalidMinBondError extends BaseError {
  readonly minBond: bigint;
  constructor({ minBond }: { minBond: bigint }) {
    super(`minimum bond ${minBond} wei is out of range: deploy with a minBond from 1 wei to 2^96 - 1 wei`, {
      code: "INVALID_MIN_BOND",
      docsPath,
      name: "InvalidMinBondError",
    });
    this.minBond = minBond;
  }
}

export type InvalidUnbondingPeriodErrorType = InvalidUnbondingPeriodError & { name: "InvalidUnbondingPeriodError" };
/** `InvalidUnbondingPeriod(unbondingPeriod, maxUnbondingPeriod)`: deployment with a period above the maximum. */
export class InvalidUnbondingPeriodError extends BaseError {
  readonly unbondingPeriod: bigint;
  readonly maxUnbondingPeriod: bigint;
  constructor({ unbondingPeriod, maxUnbondingPeriod }: { unbondingPeriod: bigint; maxUnbondingPeriod: bigint }) {
    super(
      `unbonding period ${unbondingPeriod} s exceeds the maximum ${maxUnbondingPeriod} s: deploy with an unbondingPeriod of at most ${duration(maxUnbondingPeriod)}`,
      { code: "INVALID_UNBONDING_PERIOD", docsPath, name: "InvalidUnbondingPeriodError" },
    );
    this.unbondingPeriod = unbondingPeriod;
    this.maxUnbondingPeriod = maxUnbondingPeriod;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Conditions found before or around the call.
// ------------------------------------------------------------------------------------------------------------------

export type UnknownRegistryRevertErrorType = UnknownRegistryRevertError & { name: "UnknownRegistryRevertError" };
/** A revert the registry ABI does not explain (wrong contract at the address, or an owner-only function). */
export class UnknownRegistryRevertError extends BaseError {
  readonly errorName: string | undefined;
  constructor({ errorName, args, cause }: { errorName?: string; args?: readonly unknown[]; cause?: Error }) {
    const call = errorName ? `${errorName}(${(args ?? []).map(String).join(", ")})` : "no reason";
    super(`the registry rejected the call with ${call}: check that --registry is an AttestationRegistry`, {
      code: "REGISTRY_REVERTED",
      docsPath,
      name: "UnknownRegistryRevertError",
      ...(cause ? { cause } : {}),
    });
    this.errorName = errorName;
  }
}

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
    const has = balance === undefined ? "" : ` has ${eth(balance)} ETH, which`;
    super(`account ${account}${has} cannot pay ${eth(value)} ETH plus gas: fund it or send less`, {
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
export type RegistryErrorType =
  | BondTooLowErrorType
  | AlreadyRegisteredErrorType
  | NotRegisteredErrorType
  | AlreadyUnbondingErrorType
  | NotUnbondingErrorType
  | UnbondingNotElapsedErrorType
  | AlreadyRevokedErrorType
  | ZeroAddressErrorType
  | ZeroAmountErrorType
  | SlashExceedsBondErrorType
  | BondOverflowErrorType
  | TransferFailedErrorType
  | UnknownRegistryRevertErrorType
  | RegistryNotDeployedErrorType
  | NotARegistryErrorType
  | InsufficientFundsErrorType
  | RpcUnreachableErrorType
  | RpcHttpErrorType
  | RegistryTransactionRevertedErrorType
  | InvalidDigestErrorType;
