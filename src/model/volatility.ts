/**
 * The weight of the newest day in a pool's recent volatility (v6): an exponentially weighted mean of squared daily
 * changes, so a change 7 days old counts about half as much as the newest.
 */
export const VOLATILITY_DECAY = 0.1;

/**
 * A pool's recent volatility as of each day, from that day and the days before it only: `vol[i]` is the square root of
 * the exponentially weighted mean (weight {@link VOLATILITY_DECAY} on the newest) of the squared log changes
 * ln(low[j] / low[j−1]) over the days j ≤ i where both days have a positive observed low; NaN until the first such
 * change. A day without a change (unobserved, or next to one) carries the last value.
 *
 * @param low the lows by consecutive day, NaN where not observed.
 */
export function recentVolatility(low: ArrayLike<number>): Float64Array {
  const vol = new Float64Array(low.length).fill(Number.NaN);
  let mean = Number.NaN;
  for (let i = 1; i < low.length; i++) {
    if (low[i] > 0 && low[i - 1] > 0) {
      const change = Math.log(low[i] / low[i - 1]);
      mean = Number.isNaN(mean) ? change * change : (1 - VOLATILITY_DECAY) * mean + VOLATILITY_DECAY * change * change;
    }
    vol[i] = Math.sqrt(mean);
  }
  return vol;
}
