import type { Address } from "viem";
import {
  type InvalidExpectedAddressErrorType,
  type InvalidTimeErrorType,
  MissingAttestationFieldError,
  type MissingAttestationFieldErrorType,
} from "../errors/attestation";
import { createAttestationMessage, type CreateAttestationMessageErrorType } from "./createAttestationMessage";
import { hashPersonalMessage } from "./internal/hashPersonalMessage";
import { parseExpectedAddress } from "./internal/parseExpectedAddress";
import { parseIntegerField } from "./internal/parseIntegerField";
import { recoverSignerOrNull } from "./internal/recoverSignerOrNull";
import { unixSeconds } from "./internal/unixSeconds";
import type { AttestationFields } from "./types";

export type VerifyAttestationParameters = {
  /** The attestation as published (`signature` included). Its `attester` field is ignored. */
  attestation: AttestationFields & { signature?: unknown };
  /** The expected attester: pinned, or from `GET /api/v1/attester`. Never the payload's `attester` field. */
  address: string;
  /** The clock. Defaults to `new Date()`. */
  time?: Date | undefined;
};

export type VerifyAttestationReturnType = {
  /** The signature passes the strict rules and recovers to `address` (compared case-insensitively). */
  valid: boolean;
  /** The recovered signer (EIP-55), or null when the signature is malformed or unrecoverable. */
  attester: Address | null;
  /** `expiry <= now`. Independent of `valid`: an expired attestation can be authentic. */
  expired: boolean;
  /** The canonical message that was checked. */
  canonical: string;
};

export type VerifyAttestationErrorType =
  | CreateAttestationMessageErrorType
  | MissingAttestationFieldErrorType
  | InvalidExpectedAddressErrorType
  | InvalidTimeErrorType;

/**
 * Verifies a v1 attestation offline: rebuilds the canonical message from the fields, recovers the signer under the
 * strict signature rules, compares it with the expected attester, and checks expiry against `time`.
 *
 * A malformed attestation (missing or invalid signed field, missing signature) throws a typed error naming the
 * field. A signature string that breaks the rules (wrong length, high-s, bad v...) or recovers to no key is not an
 * error: it gives `valid: false, attester: null`.
 *
 * @param parameters - {@link VerifyAttestationParameters}
 * @returns `{ valid, attester, expired, canonical }`. {@link VerifyAttestationReturnType}
 *
 * @example
 * import { verifyAttestation } from "attestation-registry";
 *
 * const attestation = await (await fetch(`${base}/api/v1/pool/${pool}`)).json();
 * const { valid, expired } = verifyAttestation({
 *   attestation,
 *   address: "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F", // pinned, never attestation.attester
 * });
 */
export function verifyAttestation({
  attestation,
  address,
  time = new Date(),
}: VerifyAttestationParameters): VerifyAttestationReturnType {
  const expected = parseExpectedAddress("address", address);
  const now = unixSeconds(time);
  const canonical = createAttestationMessage({ attestation });
  const expired = !(parseIntegerField("expiry", attestation.expiry) > now);
  const signature = (attestation as { signature?: unknown }).signature;
  if (signature === undefined) throw new MissingAttestationFieldError({ field: "signature" });

  const attester = recoverSignerOrNull(hashPersonalMessage(canonical), signature);
  return { valid: attester !== null && attester.toLowerCase() === expected, attester, expired, canonical };
}
