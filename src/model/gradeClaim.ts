import { dayNumber, dayString } from "./windowSeries";

/** A claim's grade: `pending` until its settle day is final, then `held`, `failed` or `void`, never changed. */
export type ClaimOutcome = "pending" | "held" | "failed" | "void";

/** What grading a claim decides: its outcome, and the window's low that decided it (null when pending or void). */
export interface ClaimGrade {
  outcome: ClaimOutcome;
  /** `failed`: the first window day's low below the floor; `held`: the window's lowest low; else null. */
  lowestDepthUsd: number | null;
  /** The day of `lowestDepthUsd` (`YYYY-MM-DD`, UTC); null with it. */
  lowestDepthDate: string | null;
}

/** The claim to grade: made on `issuedDay` (UTC), for `horizon` days, at `floorUsd` (half the depth it states). */
export interface GradedClaim {
  issuedDay: string;
  horizon: number;
  floorUsd: number;
}

/**
 * The settle day of a claim made on `issuedDay` for `horizon` days: its window is the `horizon` UTC days after the
 * issuance day, up to and including this one.
 *
 * @example
 * settleDay("2026-01-01", 7); // "2026-01-08"
 */
export function settleDay(issuedDay: string, horizon: number): string {
  return dayString(dayNumber(issuedDay) + horizon);
}

/**
 * Grades one claim from observed daily lows only (the accuracy record's rule, docs/model.md#grading): `pending` while
 * the settle day is after `lastFinalDay` (in-window evidence never settles early); else `failed` when an observed low
 * of a window day is below the floor (the first such day, whatever the others hold); else `void` when a window day
 * has no observed low; else `held`, with the window's lowest low. The one rule of grading: the leader's pass, the
 * model evaluation and `attest grade` all call it.
 *
 * @param claim the claim: its issuance day, horizon and floor in USD.
 * @param observedLow the observed low of a day, or null when the day has none (not read, or only a feed's daily
 *   snapshot, which is not a low).
 * @param lastFinalDay the last UTC day whose low is final (the day before today, for a live service).
 * @returns the grade.
 *
 * @example
 * gradeClaim({ issuedDay: "2026-01-01", horizon: 2, floorUsd: 50 }, (day) => 60, "2026-01-03");
 * // { outcome: "held", lowestDepthUsd: 60, lowestDepthDate: "2026-01-02" }
 */
export function gradeClaim(
  claim: GradedClaim,
  observedLow: (day: string) => number | null,
  lastFinalDay: string,
): ClaimGrade {
  const first = dayNumber(claim.issuedDay) + 1;
  const last = dayNumber(claim.issuedDay) + claim.horizon;
  if (last > dayNumber(lastFinalDay)) return { outcome: "pending", lowestDepthUsd: null, lowestDepthDate: null };
  let missing = false;
  let lowest: { usd: number; day: string } | null = null;
  for (let n = first; n <= last; n++) {
    const day = dayString(n);
    const low = observedLow(day);
    if (low === null || !Number.isFinite(low)) {
      missing = true;
      continue;
    }
    if (low < claim.floorUsd) return { outcome: "failed", lowestDepthUsd: low, lowestDepthDate: day };
    if (lowest === null || low < lowest.usd) lowest = { usd: low, day };
  }
  if (missing || lowest === null) return { outcome: "void", lowestDepthUsd: null, lowestDepthDate: null };
  return { outcome: "held", lowestDepthUsd: lowest.usd, lowestDepthDate: lowest.day };
}
