import type { Address } from "viem";
import { MissingAttestationFieldError } from "../../errors/attestation";
import { createAttestationMessage } from "../createAttestationMessage";
import type { AttestationFields } from "../types";
import { hashPersonalMessage } from "./hashPersonalMessage";
import { parseIntegerField } from "./parseIntegerField";
import { recoverSignerOrNull } from "./recoverSignerOrNull";

/** What a v1 verification finds (`verifyAttestation`'s return type). */
export type AttestationVerdict = {
  /** The signature passes the strict rules and recovers to `address` (compared case-insensitively). */
  valid: boolean;
  /** The recovered signer (EIP-55), or null when the signature is malformed or unrecoverable. */
  attester: Address | null;
  /** `expiry <= now`. Independent of `valid`: an expired attestation can be authentic. */
  expired: boolean;
  /** The canonical message that was checked. */
  canonical: string;
};

/**
 * The v1 check with the parameters already parsed (`expected` lower-cased, `now` in Unix seconds), shared by
 * `verifyAttestation` and `verifyAttestations` (which parses them once for many attestations).
 */
export function verifyAttestationAt(
  attestation: AttestationFields & { signature?: unknown },
  expected: Address,
  now: number,
): AttestationVerdict {
  const canonical = createAttestationMessage({ attestation });
  const expired = !(parseIntegerField("expiry", attestation.expiry) > now);
  const signature = (attestation as { signature?: unknown }).signature;
  if (signature === undefined) throw new MissingAttestationFieldError({ field: "signature" });

  const attester = recoverSignerOrNull(hashPersonalMessage(canonical), signature);
  return { valid: attester !== null && attester.toLowerCase() === expected, attester, expired, canonical };
}
