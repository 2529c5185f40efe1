import { formatEther, type Address, type Hash } from "viem";

import { BaseError } from "./base";
import { formatDuration, formatIsoTime } from "./utils";

/**
 * The registry's reverts: one class per custom error of `contracts/IAttestationRegistry.sol` (`BondTooLow` ->
 * `BondTooLowError`, with the error's arguments as fields), plus `UnknownRegistryRevertError` for a revert none of
 * them explains. Keep it a mirror, one for one (`test/actions/registryErrors.test.ts` checks it): what goes wrong
 * around a call (connection, deployment, funds, arguments) is in `./rpc.ts`.
 */

const docsPath = "docs/operations.md";

// ------------------------------------------------------------------------------------------------------------------
// The registry's custom errors, in the order of contracts/IAttestationRegistry.sol, each with the one-line fix.
// ------------------------------------------------------------------------------------------------------------------

export type BondTooLowErrorType = BondTooLowError & { name: "BondTooLowError" };
/** `BondTooLow(bond, minBond)`: the bond is below the registry minimum. */
export class BondTooLowError extends BaseError {
  readonly bond: bigint;
  readonly minBond: bigint;
  constructor({ bond, minBond }: { bond: bigint; minBond: bigint }) {
    super(
      `bond ${formatEther(bond)} ETH is below the registry minimum ${formatEther(minBond)} ETH: send at least ${formatEther(minBond)} ETH`,
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
      `attester ${attester} is already unbonding: its bond becomes withdrawable at ${formatIsoTime(withdrawableAt)}; run "attest withdraw" then`,
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
      `the bond of ${attester} is not withdrawable until ${formatIsoTime(withdrawableAt)} (${formatDuration(withdrawableAt - currentTime)} from chain time ${formatIsoTime(currentTime)}): run "attest withdraw" again then`,
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
    super(
      `slash of ${formatEther(amount)} ETH exceeds the bond of ${attester} (${formatEther(bond)} ETH): slash at most the bond`,
      {
        code: "SLASH_EXCEEDS_BOND",
        docsPath,
        name: "SlashExceedsBondError",
      },
    );
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
    super(`bond ${formatEther(bond)} ETH exceeds what the registry can hold (2^96 - 1 wei): send less`, {
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
      `sending ${formatEther(amount)} ETH to ${to} failed: the beneficiary must accept plain ether transfers (an EOA, or a contract with receive())`,
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
      `unbonding period ${unbondingPeriod} s exceeds the maximum ${maxUnbondingPeriod} s: deploy with an unbondingPeriod of at most ${formatDuration(maxUnbondingPeriod)}`,
      { code: "INVALID_UNBONDING_PERIOD", docsPath, name: "InvalidUnbondingPeriodError" },
    );
    this.unbondingPeriod = unbondingPeriod;
    this.maxUnbondingPeriod = maxUnbondingPeriod;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// The fallback: a revert none of the classes above explains.
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

/** Every error this domain throws: the registry's custom errors and the unknown-revert fallback. */
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
  | AttesterRemovedErrorType
  | MalformedAttestationErrorType
  | InvalidMinBondErrorType
  | InvalidUnbondingPeriodErrorType
  | UnknownRegistryRevertErrorType;
