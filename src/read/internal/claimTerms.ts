import type { StoredAttestation } from "../../storage/attestations";

const DAY_S = 86_400;

/** What a stored attestation claims, as numbers: when it was issued, for how long, how sure, which floor, until when. */
export type ClaimTerms = {
  /** Unix seconds. */
  issuedAt: number;
  /** Days. */
  horizon: number;
  /** 0–1, two fraction digits (stored in hundredths). */
  confidence: number;
  /** USD the depth must stay at or above: floor × depth at issuance. */
  floorUsd: number;
  /** Unix seconds: issuedAt + horizon days, when the claim's window closes. */
  settlesAt: number;
};

/**
 * The terms of a stored attestation, read from its stored values (the same values as its signed canonical message): the
 * one place that derives the claim's USD floor and the end of its window.
 */
export function claimTerms(attestation: StoredAttestation): ClaimTerms {
  const { issuedAt, horizonDays: horizon } = attestation;
  return {
    issuedAt,
    horizon,
    confidence: attestation.confidenceHundredths / 100,
    floorUsd: attestation.floor * attestation.depthAtIssuanceUsd,
    settlesAt: issuedAt + horizon * DAY_S,
  };
}
