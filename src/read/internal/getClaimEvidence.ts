import { getDailyLowsBetween, utcDay } from "../../storage/poolDaily";
import type { StoredAttestation } from "../../storage/attestations";
import type { ReadContext } from "../context";
import { claimTerms } from "./claimTerms";

/** The evidence of a claim: its window, and the lowest depth observed inside it so far. */
export type ClaimEvidence = {
  windowStart: number;
  windowEnd: number;
  windowStartDate: string;
  windowEndDate: string;
  /** The horizon has not been reached. */
  waiting: boolean;
  lowestDepthUsd: number | null;
  lowestDepthObservedAt: number | null;
  lowestDepthDay: string | null;
  /** Days with a recorded low inside the window so far. */
  daysObserved: number;
  note: string;
};

/**
 * The daily lows observed inside the claim's own window so far and the lowest of them (spec §3 rule 4). Evidence
 * only: it settles nothing, and no outcome is graded.
 */
export async function getClaimEvidence(
  { db, now }: ReadContext,
  attestation: StoredAttestation,
): Promise<ClaimEvidence> {
  const { issuedAt: start, settlesAt: end } = claimTerms(attestation);
  const lows = await getDailyLowsBetween(db, {
    chainId: attestation.chainId,
    address: attestation.address,
    from: start,
    to: end,
  });
  let lowest: (typeof lows)[number] | undefined;
  for (const low of lows) if (lowest === undefined || low.lowestDepthUsd < lowest.lowestDepthUsd) lowest = low;
  return {
    windowStart: start,
    windowEnd: end,
    windowStartDate: utcDay(start),
    windowEndDate: utcDay(end),
    waiting: now() < end,
    lowestDepthUsd: lowest ? lowest.lowestDepthUsd : null,
    lowestDepthObservedAt: lowest ? lowest.observedAt : null,
    lowestDepthDay: lowest ? lowest.day : null,
    daysObserved: lows.length,
    note: "Evidence only: this settles nothing, and no outcome is graded.",
  };
}
