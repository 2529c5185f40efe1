import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  getAddress,
  type Hex,
} from "viem";

import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { toRegistryError } from "../../src/actions/internal/toRegistryError";
import { BaseError } from "../../src/errors/base";
import * as registryErrors from "../../src/errors/registry";
import type { RegistryErrorType } from "../../src/errors/registry";
import * as rpcErrors from "../../src/errors/rpc";

/**
 * `src/errors/registry.ts` mirrors the custom errors of `contracts/IAttestationRegistry.sol` one for one (`BondTooLow`
 * -> `BondTooLowError`, with the error's arguments as fields of the same names), plus one fallback for a revert none
 * of them explains. Everything else about a registry call lives in `src/errors/rpc.ts`.
 */

const FALLBACK = "UnknownRegistryRevertError";

/** An `error` item of an ABI. */
type AbiError = { type: "error"; name: string; inputs: readonly { type: string; name?: string }[] };

type Declared = { name: string; inputs: { type: string; name: string }[] };

/** The `error Name(type a, type b);` declarations of the interface, comments stripped. */
function interfaceErrors(): Declared[] {
  const source = readFileSync(join(__dirname, "..", "..", "contracts", "IAttestationRegistry.sol"), "utf8")
    .replace(/\/\*[^]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");
  return [...source.matchAll(/\berror\s+(\w+)\s*\(([^)]*)\)\s*;/g)].map(([, name, params]) => ({
    name,
    inputs: params
      .split(",")
      .map((param) => param.trim())
      .filter((param) => param !== "")
      .map((param) => {
        const [type, argName] = param.split(/\s+/);
        return { type, name: argName };
      }),
  }));
}

/** The exported classes of a module that extend `BaseError`, by name. */
function errorClasses(module: Record<string, unknown>): Map<string, new (...args: never[]) => BaseError> {
  const classes = new Map<string, new (...args: never[]) => BaseError>();
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === "function" && value.prototype instanceof BaseError) {
      classes.set(name, value as new (...args: never[]) => BaseError);
    }
  }
  return classes;
}

/** A distinct, decodable sample value for an ABI parameter type. */
function sample(type: string, index: number): unknown {
  if (type === "address") return getAddress(`0x${(0x70997970 + index).toString(16).padStart(40, "0")}`);
  if (/^uint\d+$/.test(type)) return 1_000n + BigInt(index);
  if (type === "bytes32") return `0x${(index + 10).toString(16).padStart(2, "0").repeat(32)}`;
  if (type === "string") return `sample ${index}`;
  throw new Error(`no sample value for the ABI type ${type}: add one`);
}

/** What viem throws from simulateContract when the registry reverts with `error`. */
function revert(error: AbiError, args: readonly unknown[]): Error {
  const data: Hex = encodeErrorResult({ abi: [error], errorName: error.name, args } as never);
  const cause = new ContractFunctionRevertedError({ abi: attestationRegistryAbi, data, functionName: "register" });
  return new ContractFunctionExecutionError(cause, { abi: attestationRegistryAbi, functionName: "register", args: [] });
}

/**
 * Every name of the `RegistryErrorType` union. The type makes tsc reject a missing or an extra key, and the test below
 * compares the keys with the classes, so the union stays a mirror too.
 */
const unionNames: Record<RegistryErrorType["name"], true> = {
  AlreadyRegisteredError: true,
  AlreadyRevokedError: true,
  AlreadyUnbondingError: true,
  AttesterRemovedError: true,
  BondOverflowError: true,
  BondTooLowError: true,
  InvalidMinBondError: true,
  InvalidUnbondingPeriodError: true,
  MalformedAttestationError: true,
  NotRegisteredError: true,
  NotUnbondingError: true,
  SlashExceedsBondError: true,
  TransferFailedError: true,
  UnbondingNotElapsedError: true,
  UnknownRegistryRevertError: true,
  ZeroAddressError: true,
  ZeroAmountError: true,
};

describe("src/errors/registry.ts mirrors contracts/IAttestationRegistry.sol", function () {
  const declared = interfaceErrors();
  const abiErrors = (attestationRegistryAbi as readonly { type: string }[]).filter(
    (item): item is AbiError => item.type === "error",
  );
  const classes = errorClasses(registryErrors);

  it("reads the interface's error declarations", function () {
    expect(declared.length).to.be.greaterThanOrEqual(16);
    expect(declared.map((error) => error.name)).to.include.members(["BondTooLow", "InvalidUnbondingPeriod"]);
    expect(new Set(declared.map((error) => error.name)).size).to.equal(declared.length);
  });

  it("has one class per custom error, plus the unknown-revert fallback, and nothing else", function () {
    const expected = [...declared.map((error) => `${error.name}Error`), FALLBACK].sort();
    expect([...classes.keys()].sort()).to.deep.equal(expected);
  });

  it("lists exactly those classes in RegistryErrorType", function () {
    expect(Object.keys(unionNames).sort()).to.deep.equal([...classes.keys()].sort());
  });

  it("finds every interface error in the ABI with the same inputs", function () {
    for (const error of declared) {
      const inAbi = abiErrors.find((item) => item.name === error.name);
      expect(inAbi, `${error.name} in src/abi/attestationRegistryAbi.ts`).to.not.equal(undefined);
      expect(
        inAbi!.inputs.map((input) => ({ type: input.type, name: input.name })),
        `inputs of ${error.name}`,
      ).to.deep.equal(error.inputs);
    }
  });

  it("maps each custom error to its class, with the arguments as fields of the same names", function () {
    const codes = new Set<string>();
    for (const error of declared) {
      const abiError = abiErrors.find((item) => item.name === error.name)!;
      const args = abiError.inputs.map((input, index) => sample(input.type, index));
      const mapped = toRegistryError(revert(abiError, args), {}) as BaseError & Record<string, unknown>;
      const expectedClass = classes.get(`${error.name}Error`)!;
      expect(mapped, error.name).to.be.instanceOf(expectedClass);
      expect(mapped.name, error.name).to.equal(`${error.name}Error`);
      abiError.inputs.forEach((input, index) => {
        expect(mapped[input.name!], `${error.name}.${input.name}`).to.deep.equal(args[index]);
      });
      expect(mapped.shortMessage.split("\n"), `${error.name}: one line`).to.have.length(1);
      expect(codes.has(mapped.code), `${error.name}: code ${mapped.code} is unique`).to.equal(false);
      codes.add(mapped.code);
    }
  });

  it("falls back to UnknownRegistryRevertError for every other error of the ABI (inherited ones)", function () {
    const declaredNames = new Set(declared.map((error) => error.name));
    const inherited = abiErrors.filter((error) => !declaredNames.has(error.name));
    expect(inherited.map((error) => error.name)).to.include("OwnableUnauthorizedAccount");
    for (const error of inherited) {
      const args = error.inputs.map((input, index) => sample(input.type, index));
      const mapped = toRegistryError(revert(error, args), {});
      expect(mapped, error.name).to.be.instanceOf(registryErrors.UnknownRegistryRevertError);
      expect((mapped as registryErrors.UnknownRegistryRevertError).errorName).to.equal(error.name);
    }
  });

  it("keeps the errors around a call (src/errors/rpc.ts) out of the mirror", function () {
    const rpcClasses = [...errorClasses(rpcErrors).keys()];
    expect(rpcClasses).to.include.members(["RpcUnreachableError", "RegistryNotDeployedError", "InvalidDigestError"]);
    const mirrored = new Set(declared.map((error) => `${error.name}Error`));
    for (const name of rpcClasses) {
      expect(classes.has(name), `${name} is exported by both files`).to.equal(false);
      expect(mirrored.has(name), `${name} mirrors a custom error: it belongs in registry.ts`).to.equal(false);
    }
  });
});
