import { expect } from "chai";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  TimeoutError,
  type Address,
  type Hash,
} from "viem";

import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import type { BaseError } from "../../src/errors/base";
import { toRegistryError } from "../../src/actions/internal/toRegistryError";
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
} from "../../src/errors/registry";
import { InsufficientFundsError, RpcHttpError, RpcUnreachableError } from "../../src/errors/rpc";
import { redactRpcUrl } from "../../src/errors/utils";

const who: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const digest: Hash = `0x${"ab".repeat(32)}`;

/** What viem throws from simulateContract when the registry reverts with `errorName(args)`. */
function revert(errorName: string, args: readonly unknown[]): Error {
  const data = encodeErrorResult({ abi: attestationRegistryAbi, errorName: errorName as never, args: args as never });
  const cause = new ContractFunctionRevertedError({ abi: attestationRegistryAbi, data, functionName: "register" });
  return new ContractFunctionExecutionError(cause, {
    abi: attestationRegistryAbi,
    functionName: "register",
    args: [who],
  });
}

describe("toRegistryError", function () {
  it("maps every registry custom error to its typed error with the arguments", function () {
    const cases: [Error, new (...args: never[]) => Error, Record<string, unknown>][] = [
      [revert("BondTooLow", [5n, 10n]), BondTooLowError, { bond: 5n, minBond: 10n }],
      [revert("AlreadyRegistered", [who]), AlreadyRegisteredError, { attester: who }],
      [revert("NotRegistered", [who]), NotRegisteredError, { attester: who }],
      [revert("AlreadyUnbonding", [who, 99n]), AlreadyUnbondingError, { attester: who, withdrawableAt: 99n }],
      [revert("NotUnbonding", [who]), NotUnbondingError, { attester: who }],
      [
        revert("UnbondingNotElapsed", [who, 1_800_000_000n, 1_799_906_399n]),
        UnbondingNotElapsedError,
        { withdrawableAt: 1_800_000_000n, currentTime: 1_799_906_399n },
      ],
      [revert("AlreadyRevoked", [who, digest]), AlreadyRevokedError, { attester: who, digest }],
      [revert("ZeroAddress", []), ZeroAddressError, {}],
      [revert("ZeroAmount", []), ZeroAmountError, {}],
      [revert("SlashExceedsBond", [who, 3n, 2n]), SlashExceedsBondError, { amount: 3n, bond: 2n }],
      [revert("BondOverflow", [2n ** 96n]), BondOverflowError, { bond: 2n ** 96n }],
      [revert("TransferFailed", [who, 7n]), TransferFailedError, { to: who, amount: 7n }],
      [revert("AttesterRemoved", [who]), AttesterRemovedError, { attester: who }],
      [revert("MalformedAttestation", []), MalformedAttestationError, {}],
      [revert("InvalidMinBond", [0n]), InvalidMinBondError, { minBond: 0n }],
      [
        revert("InvalidUnbondingPeriod", [2n ** 64n - 1n, 315_360_000n]),
        InvalidUnbondingPeriodError,
        { unbondingPeriod: 2n ** 64n - 1n, maxUnbondingPeriod: 315_360_000n },
      ],
    ];
    for (const [error, type, fields] of cases) {
      const mapped = toRegistryError(error, {});
      expect(mapped, type.name).to.be.instanceOf(type);
      expect(mapped, type.name).to.include(fields);
      expect((mapped as BaseError).shortMessage, type.name).to.match(/^[^\n]+: [^\n]+$/);
      expect((mapped as BaseError).docsPath).to.equal("docs/operations.md");
    }
  });

  it("says how long is left before a withdrawal", function () {
    const mapped = toRegistryError(revert("UnbondingNotElapsed", [who, 1_800_000_000n, 1_799_906_399n]), {});
    expect((mapped as UnbondingNotElapsedError).shortMessage).to.equal(
      `the bond of ${who} is not withdrawable until 2027-01-15T08:00:00Z (1d 2h 1s from chain time 2027-01-14T05:59:59Z): run "attest withdraw" again then`,
    );
  });

  it("reports other contract errors (OpenZeppelin's) by name and arguments", function () {
    const mapped = toRegistryError(revert("OwnableUnauthorizedAccount", [who]), {});
    expect(mapped).to.be.instanceOf(UnknownRegistryRevertError);
    expect((mapped as UnknownRegistryRevertError).errorName).to.equal("OwnableUnauthorizedAccount");
    expect((mapped as UnknownRegistryRevertError).shortMessage).to.equal(
      `the registry rejected the call with OwnableUnauthorizedAccount(${who}): check that --registry is an AttestationRegistry`,
    );
  });

  it("decodes revert data carried on a non-viem cause (the in-process provider's shape)", async function () {
    const data = encodeErrorResult({ abi: attestationRegistryAbi, errorName: "NotRegistered", args: [who] });
    const { UnknownRpcError } = await import("viem");
    const error = new UnknownRpcError(Object.assign(new Error("reverted"), { data }));
    expect(toRegistryError(error, {})).to.be.instanceOf(NotRegisteredError);
  });

  it("treats a transport failure without an HTTP status, or a timeout, as unreachable; an HTTP error status is RpcHttpError", function () {
    const refused = new HttpRequestError({ url: "http://127.0.0.1:9/key", details: "fetch failed" });
    expect(toRegistryError(refused, {})).to.be.instanceOf(RpcUnreachableError);
    const timeout = new TimeoutError({ body: {}, url: "https://rpc.example/v3/key" });
    const mapped = toRegistryError(timeout, {});
    expect(mapped).to.be.instanceOf(RpcUnreachableError);
    expect((mapped as RpcUnreachableError).shortMessage).to.equal(
      "cannot reach the RPC endpoint https://rpc.example/… (request timed out): check that the node is running and --rpc / RPC_URL",
    );
    const status = new HttpRequestError({ url: "https://rpc.example/v3/key", status: 401, details: "Unauthorized" });
    const http = toRegistryError(status, {});
    expect(http).to.be.instanceOf(RpcHttpError);
    expect((http as RpcHttpError).status).to.equal(401);
    expect((http as RpcHttpError).shortMessage).to.equal(
      "the RPC endpoint https://rpc.example/… answered HTTP 401 instead of JSON-RPC: check that --rpc / RPC_URL is the node's JSON-RPC URL (and its API key, if it needs one)",
    );
  });

  it("recognises a node's insufficient-funds message when the account is known", async function () {
    const { UnknownRpcError } = await import("viem");
    const error = new UnknownRpcError(new Error("insufficient funds for gas * price + value"));
    const mapped = toRegistryError(error, { account: who, value: 10n ** 18n });
    expect(mapped).to.be.instanceOf(InsufficientFundsError);
    expect((mapped as InsufficientFundsError).shortMessage).to.equal(
      `account ${who} cannot pay 1 ETH plus gas: fund it or send less`,
    );
  });

  it("passes through what it cannot explain", function () {
    const plain = new Error("something else");
    expect(toRegistryError(plain, {})).to.equal(plain);
    expect(toRegistryError("text", {})).to.be.instanceOf(Error);
  });
});

describe("redactRpcUrl", function () {
  it("keeps only scheme, host and port", function () {
    expect(redactRpcUrl("http://127.0.0.1:8545")).to.equal("http://127.0.0.1:8545");
    expect(redactRpcUrl("http://127.0.0.1:8545/")).to.equal("http://127.0.0.1:8545");
    expect(redactRpcUrl("https://mainnet.example/v3/0123abcd")).to.equal("https://mainnet.example/…");
    expect(redactRpcUrl("https://user:pass@rpc.example")).to.equal("https://rpc.example/…");
    expect(redactRpcUrl("https://rpc.example/?apikey=x")).to.equal("https://rpc.example/…");
    expect(redactRpcUrl("not a url")).to.equal("<invalid URL>");
  });
});
