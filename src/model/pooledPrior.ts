import type { Calibration } from "./calibration";

/**
 * The weight, in independent windows, of the pooled hold rate in v5's prior: the pool's own windows (each h-day window
 * counting 2/h of an independent trial, as v2 counts them) are added to this many pseudo-windows at the pooled rate.
 * v2 is the same rule with 2 pseudo-windows at one half.
 */
export const PRIOR_STRENGTH = 10;

/**
 * v5's prior, where a horizon's pooled map is too thin to fit (docs/model.md#v5-a-pooled-prior): the rule of
 * succession on the pool's own windows (v2), but shrunk towards the horizon's pooled hold rate instead of one half,
 * and never above that rate: thin evidence never promises more than other pools' windows held, and a pool whose own
 * windows failed gets less. The pooled rate is that of every other pool's window of the horizon closed by the day,
 * scored or not (a pool's windows from its first day count, before it had the windows to be scored), itself shrunk
 * towards one half (Laplace's rule on effective windows). With no pooled window at all (a lone pool), v2's confidence
 * exactly: (2·held/h + 1) / (2·windows/h + 2).
 *
 * @param stats the pool's own windows of the candidate horizon, closed by the day.
 * @param map the horizon's calibration (its `pooledWindows` and `pooledHeld`), if any.
 * @returns a probability in (0, 1).
 */
export function pooledPriorProbability(
  stats: { horizonDays: number; windows: number; held: number },
  map?: Calibration,
): number {
  const h = stats.horizonDays;
  const ownTrials = (2 * stats.windows) / h;
  const ownHeld = (2 * stats.held) / h;
  const pooledWindows = map?.pooledWindows ?? 0;
  if (!(pooledWindows > 0)) return (ownHeld + 1) / (ownTrials + 2);
  const rate = ((map?.pooledHeld ?? 0) + 1) / (pooledWindows + 2);
  return Math.min(rate, (ownHeld + PRIOR_STRENGTH * rate) / (ownTrials + PRIOR_STRENGTH));
}
