import type {
  InvalidExpectedAddressErrorType,
  InvalidTimeErrorType,
  MissingAttestationFieldErrorType,
} from "../errors/attestation";
import type { VerifyBackendUnavailableErrorType } from "../errors/verifyBackend";
import type { CreateAttestationMessageErrorType } from "./createAttestationMessage";
import { parseExpectedAddress } from "./internal/parseExpectedAddress";
import { unixSeconds } from "./internal/unixSeconds";
import { type AttestationVerdict, verifyAttestationAt } from "./internal/verifyAttestationAt";
import type { AttestationFields } from "./types";

export type VerifyAttestationParameters = {
  /** The attestation as published (`signature` included). Its `attester` field is ignored. */
  attestation: AttestationFields & { signature?: unknown };
  /** The expected attester: pinned, or from `GET /api/v1/attester`. Never the payload's `attester` field. */
  address: string;
  /** The clock. Defaults to `new Date()`. */
  time?: Date | undefined;
};

/** `{ valid, attester, expired, canonical }`: see {@link AttestationVerdict}. */
export type VerifyAttestationReturnType = AttestationVerdict;

export type VerifyAttestationErrorType =
  | CreateAttestationMessageErrorType
  | MissingAttestationFieldErrorType
  | InvalidExpectedAddressErrorType
  | InvalidTimeErrorType
  | VerifyBackendUnavailableErrorType;

/**
 * Verifies a v1 attestation offline: rebuilds the canonical message from the fields, recovers the signer under the
 * strict signature rules, compares it with the expected attester, and checks expiry against `time`.
 *
 * A malformed attestation (missing or invalid signed field, missing signature) throws a typed error naming the
 * field. A signature string that breaks the rules (wrong length, high-s, bad v...) or recovers to no key is not an
 * error: it gives `valid: false, attester: null`. The strict rules run here, then the recovery backend (libsecp256k1
 * where it loads, else @noble/curves: see {@link setVerifyBackend}); both give the same answer for every input.
 * To check many attestations against one attester, {@link verifyAttestations} parses the parameters once.
 *
 * @param parameters - {@link VerifyAttestationParameters}
 * @returns `{ valid, attester, expired, canonical }`. {@link VerifyAttestationReturnType}
 *
 * @example
 * import { verifyAttestation } from "@attestation-registry/sdk";
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
  return verifyAttestationAt(attestation, parseExpectedAddress("address", address), unixSeconds(time));
}
