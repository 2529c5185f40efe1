import type { Address } from "viem";
import { getAddress } from "viem";
import { InvalidExpectedAddressError, type InvalidExpectedAddressErrorType } from "../errors/attestation";
import { parseExpectedAddress } from "./internal/parseExpectedAddress";
import { parseUint } from "./internal/parseUint";
import { toTypedAttestation, type ToTypedAttestationErrorType } from "./toTypedAttestation";
import type { AttestationFields, AttestationRegistry, TypedAttestation } from "./types";

/** The EIP-712 struct, field order and widths as in `contracts/Common.sol`. */
export const attestationTypes = {
  Attestation: [
    { name: "chainId", type: "uint256" },
    { name: "pool", type: "address" },
    { name: "confidence", type: "uint16" },
    { name: "horizonDays", type: "uint32" },
    { name: "issuedAt", type: "uint64" },
    { name: "expiresAt", type: "uint64" },
  ],
} as const;

export type GetAttestationTypedDataParameters = {
  /** The v1 attestation fields. */
  attestation: AttestationFields;
  /** The registry the signature is bound to: its chain (not the pool's) and address. */
  registry: AttestationRegistry;
};

export type GetAttestationTypedDataReturnType = {
  domain: { name: "AttestationRegistry"; version: "1"; chainId: bigint; verifyingContract: Address };
  types: typeof attestationTypes;
  primaryType: "Attestation";
  message: TypedAttestation;
};

export type GetAttestationTypedDataErrorType = ToTypedAttestationErrorType | InvalidExpectedAddressErrorType;

/**
 * The EIP-712 typed data of a v2 attestation, ready for viem `hashTypedData` / `signTypedData` or ethers
 * `TypedDataEncoder` (`types` has no `EIP712Domain` entry). Domain: `{name: "AttestationRegistry", version: "1",
 * chainId: <registry chain>, verifyingContract: <registry>}`.
 *
 * @param parameters - {@link GetAttestationTypedDataParameters}
 * @returns `{ domain, types, primaryType, message }`. {@link GetAttestationTypedDataReturnType}
 *
 * @example
 * import { getAttestationTypedData } from "@attestation-registry/sdk";
 * import { hashTypedData } from "viem";
 *
 * const typedData = getAttestationTypedData({
 *   attestation,
 *   registry: { chainId: 8453, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
 * });
 * const digest = hashTypedData(typedData);
 */
export function getAttestationTypedData({
  attestation,
  registry,
}: GetAttestationTypedDataParameters): GetAttestationTypedDataReturnType {
  if (typeof registry !== "object" || registry === null)
    throw new InvalidExpectedAddressError({ parameter: "registry", value: registry });
  const verifyingContract = getAddress(parseExpectedAddress("registry.address", registry.address));
  const chainId = parseUint("registry.chainId", registry.chainId, 256);
  return {
    domain: { name: "AttestationRegistry", version: "1", chainId, verifyingContract },
    types: attestationTypes,
    primaryType: "Attestation",
    message: toTypedAttestation({ attestation }),
  };
}
