import {
  BaseError as ViemBaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  isHex,
  HttpRequestError,
  InsufficientFundsError as ViemInsufficientFundsError,
  TimeoutError,
  WebSocketRequestError,
  type Address,
  type Hash,
} from "viem";

import { attestationRegistryAbi } from "../../abi/attestationRegistryAbi";
import {
  AlreadyRegisteredError,
  AlreadyRevokedError,
  AlreadyUnbondingError,
  AttesterRemovedError,
  BondOverflowError,
  BondTooLowError,
  InvalidMinBondError,
  InvalidUnbondingPeriodError,
  MalformedAttestationError,
  NotRegisteredError,
  NotUnbondingError,
  SlashExceedsBondError,
  TransferFailedError,
  UnbondingNotElapsedError,
  UnknownRegistryRevertError,
  ZeroAddressError,
  ZeroAmountError,
} from "../../errors/registry";
import { InsufficientFundsError, RpcHttpError, RpcUnreachableError } from "../../errors/rpc";

/** Messages nodes use for "cannot pay value + gas" (geth/reth, Hardhat/EDR, anvil). */
const insufficientFundsMessage =
  /insufficient funds|exceeds transaction sender account balance|doesn't have enough funds|insufficient balance/i;

/** Socket-level failures: nothing answered at the address. */
const networkFailure = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/;

/** Turns what viem threw around a registry call into the typed error that names the fix; passes others through. */
export function toRegistryError(
  error: unknown,
  context: { account?: Address | undefined; value?: bigint | undefined; url?: string | undefined },
): Error {
  if (!(error instanceof ViemBaseError)) return error instanceof Error ? error : new Error(String(error));

  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  const decoded =
    reverted instanceof ContractFunctionRevertedError && reverted.data ? reverted.data : decodeRevertData(error);
  if (decoded) {
    const mapped = fromCustomError(decoded.errorName, decoded.args ?? []);
    if (mapped) return mapped;
    return new UnknownRegistryRevertError({ errorName: decoded.errorName, args: decoded.args, cause: error });
  }

  const transport = error.walk(
    (e) => e instanceof HttpRequestError || e instanceof WebSocketRequestError || e instanceof TimeoutError,
  );
  if (transport instanceof HttpRequestError || transport instanceof WebSocketRequestError) {
    // An HTTP status means the server answered: only a missing answer is "unreachable".
    if (!(transport instanceof HttpRequestError) || transport.status === undefined) {
      return new RpcUnreachableError({ url: transport.url, reason: transport.details, cause: error });
    }
    return new RpcHttpError({ url: transport.url, status: transport.status, cause: error });
  }
  if (transport instanceof TimeoutError) {
    return new RpcUnreachableError({ url: transport.url, reason: "request timed out", cause: error });
  }

  // Socket transports report a refused connection as an unknown RPC error caused by the socket's error event.
  const refused = error.walk(
    (e) =>
      !!e && typeof e === "object" && "message" in e && typeof e.message === "string" && networkFailure.test(e.message),
  ) as { message: string } | null;
  if (refused) {
    return new RpcUnreachableError({
      url: context.url,
      reason: networkFailure.exec(refused.message)?.[0],
      cause: error,
    });
  }

  const poor =
    error.walk((e) => e instanceof ViemInsufficientFundsError) ??
    error.walk((e) => e instanceof Error && insufficientFundsMessage.test(e.message));
  if (poor && context.account) {
    return new InsufficientFundsError({ account: context.account, value: context.value ?? 0n, cause: error });
  }

  if (reverted instanceof ContractFunctionRevertedError) {
    return new UnknownRegistryRevertError({ cause: error });
  }
  return error;
}

/**
 * Some providers (the in-process Hardhat network among them) throw reverts without a JSON-RPC code, so viem does not
 * decode them: find revert data (`data` or `data.data`) anywhere in the cause chain and decode it with the ABI.
 */
function decodeRevertData(error: ViemBaseError): { errorName: string; args?: readonly unknown[] } | undefined {
  let found: { errorName: string; args?: readonly unknown[] } | undefined;
  error.walk((e) => {
    if (!e || typeof e !== "object" || !("data" in e)) return false;
    const raw = e.data;
    const data = typeof raw === "string" ? raw : raw && typeof raw === "object" && "data" in raw ? raw.data : undefined;
    if (typeof data !== "string" || !isHex(data) || data.length < 10) return false;
    try {
      const result = decodeErrorResult({ abi: attestationRegistryAbi, data });
      found = { errorName: result.errorName, args: result.args };
      return true;
    } catch {
      return false;
    }
  });
  return found;
}

function fromCustomError(name: string, a: readonly unknown[]): Error | undefined {
  switch (name) {
    case "BondTooLow":
      return new BondTooLowError({ bond: a[0] as bigint, minBond: a[1] as bigint });
    case "AlreadyRegistered":
      return new AlreadyRegisteredError({ attester: a[0] as Address });
    case "NotRegistered":
      return new NotRegisteredError({ attester: a[0] as Address });
    case "AlreadyUnbonding":
      return new AlreadyUnbondingError({ attester: a[0] as Address, withdrawableAt: BigInt(a[1] as bigint) });
    case "NotUnbonding":
      return new NotUnbondingError({ attester: a[0] as Address });
    case "UnbondingNotElapsed":
      return new UnbondingNotElapsedError({
        attester: a[0] as Address,
        withdrawableAt: BigInt(a[1] as bigint),
        currentTime: BigInt(a[2] as bigint),
      });
    case "AlreadyRevoked":
      return new AlreadyRevokedError({ attester: a[0] as Address, digest: a[1] as Hash });
    case "ZeroAddress":
      return new ZeroAddressError();
    case "ZeroAmount":
      return new ZeroAmountError();
    case "SlashExceedsBond":
      return new SlashExceedsBondError({ attester: a[0] as Address, amount: a[1] as bigint, bond: a[2] as bigint });
    case "BondOverflow":
      return new BondOverflowError({ bond: a[0] as bigint });
    case "TransferFailed":
      return new TransferFailedError({ to: a[0] as Address, amount: a[1] as bigint });
    case "AttesterRemoved":
      return new AttesterRemovedError({ attester: a[0] as Address });
    case "MalformedAttestation":
      return new MalformedAttestationError();
    case "InvalidMinBond":
      return new InvalidMinBondError({ minBond: a[0] as bigint });
    case "InvalidUnbondingPeriod":
      return new InvalidUnbondingPeriodError({
        unbondingPeriod: BigInt(a[0] as bigint),
        maxUnbondingPeriod: BigInt(a[1] as bigint),
      });
    default:
      return undefined;
  }
}
