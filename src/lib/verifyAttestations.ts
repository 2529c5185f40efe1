import type { Address } from "viem";
import type { InvalidExpectedAddressErrorType, InvalidTimeErrorType } from "../errors/attestation";
import { BaseError } from "../errors/base";
import { errorLine } from "../errors/utils";
import type { InvalidVerifyBackendErrorType, VerifyBackendUnavailableErrorType } from "../errors/verifyBackend";
import { parseExpectedAddress } from "./internal/parseExpectedAddress";
import { activeBackend } from "./internal/recoverBackend";
import { unixSeconds } from "./internal/unixSeconds";
import { verifyAttestationAt } from "./internal/verifyAttestationAt";
import { parseAttestationJson } from "./parseAttestationJson";
import type { AttestationFields } from "./types";

export type VerifyAttestationsParameters = {
  /**
   * The attestations, each as published: an object, or its JSON text (parsed with the strict parser of
   * {@link parseAttestationJson}, as `attest verify` and `POST /api/v1/verify` do: a repeated member name is refused).
   */
  attestations: Iterable<unknown>;
  /** The one expected attester, pinned (or from `GET /api/v1/attester`). Never a payload's `attester` field. */
  address: string;
  /** The clock, the same for every attestation. Defaults to `new Date()`. */
  time?: Date | undefined;
};

/** One attestation's result, in input order. */
export type VerifyAttestationsResult = {
  /** The signature passes the strict rules and recovers to `address`. */
  valid: boolean;
  /** The recovered signer (EIP-55), or null (malformed or unrecoverable signature, or no attestation to check). */
  attester: Address | null;
  /** `expiry <= now`; false when the attestation could not be read. Independent of `valid`. */
  expired: boolean;
  /** The canonical message checked, or null when the attestation could not be read. */
  canonical: string | null;
  /** Why the attestation could not be checked (not JSON, a missing or malformed field), in one line; else null. */
  error: string | null;
  /** The stable code of that error (e.g. `ATTESTATION_FIELD_MISSING`, `JSON_INVALID`); else null. */
  errorCode: string | null;
};

export type VerifyAttestationsReturnType = VerifyAttestationsResult[];

export type VerifyAttestationsErrorType =
  | InvalidExpectedAddressErrorType
  | InvalidTimeErrorType
  | VerifyBackendUnavailableErrorType
  | InvalidVerifyBackendErrorType;

/**
 * Verifies many v1 attestations against one expected attester, in this thread: the same checks as
 * {@link verifyAttestation} with the address and the clock parsed once. A malformed attestation does not stop the
 * run: its result carries the error (`valid: false`), and the next one is checked. Only bad parameters (`address`,
 * `time`) or an unusable forced backend throw. For all cores, `attest verify --batch` spreads this over worker
 * threads (docs/verification.md).
 *
 * @param parameters - {@link VerifyAttestationsParameters}
 * @returns One result per attestation, in input order. {@link VerifyAttestationsReturnType}
 *
 * @example
 * import { verifyAttestations } from "@attestation-registry/sdk";
 *
 * const lines = ndjson.split("\n").filter((line) => line !== "");
 * const results = verifyAttestations({ attestations: lines, address: pinnedAttester });
 * const bad = results.flatMap((r, i) => (r.valid && !r.expired ? [] : [i + 1]));
 */
export function verifyAttestations({
  attestations,
  address,
  time = new Date(),
}: VerifyAttestationsParameters): VerifyAttestationsReturnType {
  const expected = parseExpectedAddress("address", address);
  const now = unixSeconds(time);
  activeBackend(); // a forced backend that cannot load, or a bad ATTEST_VERIFY_BACKEND, throws once, before any item
  const results: VerifyAttestationsResult[] = [];
  for (const item of attestations) {
    try {
      const attestation = typeof item === "string" ? parseAttestationJson({ text: item }) : item;
      const verdict = verifyAttestationAt(attestation as AttestationFields, expected, now);
      results.push({ ...verdict, error: null, errorCode: null });
    } catch (error) {
      // A project error describes this attestation; anything else is a bug and propagates.
      if (!(error instanceof BaseError)) throw error;
      results.push({
        valid: false,
        attester: null,
        expired: false,
        canonical: null,
        error: errorLine(error),
        errorCode: error.code,
      });
    }
  }
  return results;
}
