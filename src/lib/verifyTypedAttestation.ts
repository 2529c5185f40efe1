import { type Address, type Hex, hashTypedData, hexToBytes } from "viem";
import {
  type InvalidExpectedAddressErrorType,
  type InvalidTimeErrorType,
  MissingAttestationFieldError,
  type MissingAttestationFieldErrorType,
} from "../errors/attestation";
import { getAttestationTypedData, type GetAttestationTypedDataErrorType } from "./getAttestationTypedData";
import { parseExpectedAddress } from "./internal/parseExpectedAddress";
import { recoverSignerOrNull } from "./internal/recoverSignerOrNull";
import { unixSeconds } from "./internal/unixSeconds";
import type { Attestation, AttestationRegistry } from "./types";

export type VerifyTypedAttestationParameters = {
  /** The attestation (v1 fields; `eip712.signature` is used when `signature` is not given). */
  attestation: Attestation;
  /** The registry the signature must be bound to. Pin it: never take it from the payload's `eip712.domain`. */
  registry: AttestationRegistry;
  /** The expected attester (pinned or from `GET /api/v1/attester`). */
  address: string;
  /** The v2 signature. Defaults to `attestation.eip712.signature`. */
  signature?: string | undefined;
  /** The clock. Defaults to `new Date()`. */
  time?: Date | undefined;
};

export type VerifyTypedAttestationReturnType = {
  /** The signature passes the strict rules and recovers to `address`. */
  valid: boolean;
  /** The recovered signer (EIP-55), or null for a malformed or unrecoverable signature. */
  attester: Address | null;
  /** Off-chain rule: `expiresAt <= now`. (On chain the registry accepts up to and including `expiresAt`.) */
  expired: boolean;
  /** The EIP-712 digest that was checked (the registry's `hashAttestation`). */
  digest: Hex;
};

export type VerifyTypedAttestationErrorType =
  | GetAttestationTypedDataErrorType
  | MissingAttestationFieldErrorType
  | InvalidExpectedAddressErrorType
  | InvalidTimeErrorType;

/**
 * Verifies a v2 (EIP-712) attestation signature offline: the signature check of the registry's `verify`, without
 * its registration, bond and revocation checks (those need the chain: see the registry actions). Same strict
 * signature rules as v1. `expired` uses the off-chain rule (`expiresAt <= now`).
 *
 * @param parameters - {@link VerifyTypedAttestationParameters}
 * @returns `{ valid, attester, expired, digest }`. {@link VerifyTypedAttestationReturnType}
 *
 * @example
 * import { verifyTypedAttestation } from "@attestation-registry/sdk";
 *
 * const { valid } = verifyTypedAttestation({
 *   attestation,
 *   registry: { chainId: 8453, address: registryAddress },
 *   address: pinnedAttester,
 * });
 */
export function verifyTypedAttestation({
  attestation,
  registry,
  address,
  signature = attestation?.eip712?.signature,
  time = new Date(),
}: VerifyTypedAttestationParameters): VerifyTypedAttestationReturnType {
  const expected = parseExpectedAddress("address", address);
  const now = unixSeconds(time);
  const typedData = getAttestationTypedData({ attestation, registry });
  const digest = hashTypedData(typedData);
  const expired = !(typedData.message.expiresAt > BigInt(now));
  if (signature === undefined) throw new MissingAttestationFieldError({ field: "eip712.signature" });
  const attester = recoverSignerOrNull(hexToBytes(digest), signature);
  return { valid: attester !== null && attester.toLowerCase() === expected, attester, expired, digest };
}
