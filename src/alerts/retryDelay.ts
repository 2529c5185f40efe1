/** The jitter applied to every retry delay: ±10 %. */
export const RETRY_JITTER = 0.1;

export type RetryDelayParameters = {
  /** `ALERTS_RETRY_SCHEDULE_S`: the delays between attempts, in seconds. */
  scheduleS: readonly number[];
  /** The attempt that just failed: 1 for the first. */
  failedAttempt: number;
  /** Uniform in [0, 1); default `Math.random` (tests pin it). */
  random?: () => number;
};

/**
 * How long to wait after a failed attempt before the next one, in milliseconds: the schedule's delay for this attempt
 * (`scheduleS[failedAttempt - 1]`) times a uniform jitter in [0.9, 1.1), so that many deliveries failing together do
 * not retry in lockstep. Null when the schedule has run out: the delivery is failed. With the default schedule
 * (5 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h) a delivery gets 8 attempts over about 8.7 hours.
 *
 * @param {@link RetryDelayParameters}
 * @returns the delay in ms, or null (no attempt left).
 * @example
 * retryDelayMs({ scheduleS: [5, 30], failedAttempt: 1, random: () => 0.5 }); // 5000
 */
export function retryDelayMs({ scheduleS, failedAttempt, random = Math.random }: RetryDelayParameters): number | null {
  const delayS = scheduleS[failedAttempt - 1];
  if (delayS === undefined) return null;
  const factor = 1 + (random() * 2 - 1) * RETRY_JITTER;
  return Math.round(delayS * 1000 * factor);
}
