import { formatPoolId } from "@attestation-registry/sdk";
import type { AccuracyRecord } from "../../storage/accuracyRecords";

const DAY_S = 86_400;

/** A graded claim as the accuracy record publishes it. */
export type GradedClaim = {
  /** `eip155:<chainId>:<address>`. */
  pool: string;
  /** Unix seconds. */
  issuedAt: number;
  horizon: number;
  confidence: number;
  /** USD: floor × the depth the attestation states. */
  floorUsd: number;
  /** Unix seconds: issuedAt + horizon days. */
  settlesAt: number;
  outcome: "held" | "failed" | "void";
  lowestDepthUsd: number | null;
  lowestDepthDate: string | null;
};

/** The published form of a record. */
export function gradedClaim(record: AccuracyRecord): GradedClaim {
  return {
    pool: formatPoolId({ chainId: record.chainId, address: record.address }),
    issuedAt: record.issuedAt,
    horizon: record.horizonDays,
    confidence: record.confidenceHundredths / 100,
    floorUsd: record.floorUsd,
    settlesAt: settlesAt(record),
    outcome: record.outcome as GradedClaim["outcome"],
    lowestDepthUsd: record.lowestDepthUsd,
    lowestDepthDate: record.lowestDepthDate,
  };
}

/** Unix seconds: the claim's settle time, issuedAt + horizon days. */
export function settlesAt(record: AccuracyRecord): number {
  return record.issuedAt + record.horizonDays * DAY_S;
}
