/** Parameters of {@link isStale}. */
export interface IsStaleParameters {
  /** When the value was observed, Unix seconds; null or undefined means never observed. */
  observedAt: number | null | undefined;
  /** Current time, Unix seconds. */
  now: number;
  /** Freshness window in seconds (`FRESHNESS_WINDOW_S`, default 3600). */
  windowS: number;
}

/**
 * The freshness rule (spec §3): a value is stale when it was never observed or was observed more than `windowS`
 * seconds before `now`. Stale values are held out of totals and rankings and listed beside them; they are never
 * deleted. A value observed exactly `windowS` seconds ago is still fresh.
 *
 * @param {@link IsStaleParameters}
 * @returns true when the value must be held out.
 * @example
 * import { isStale } from "./model/freshness";
 * isStale({ observedAt: pool.depth_observed_at, now: Math.floor(Date.now() / 1000), windowS: 3600 });
 */
export function isStale({ observedAt, now, windowS }: IsStaleParameters): boolean {
  if (observedAt === null || observedAt === undefined || !Number.isFinite(observedAt)) return true;
  return now - observedAt > windowS;
}

/**
 * Splits items into the fresh ones (which may enter totals and rankings) and the stale ones (published beside).
 *
 * @example
 * const { fresh, stale } = partitionByFreshness({ items: pools, observedAt: (p) => p.depth_observed_at, now, windowS });
 */
export function partitionByFreshness<T>(parameters: {
  items: readonly T[];
  observedAt: (item: T) => number | null | undefined;
  now: number;
  windowS: number;
}): { fresh: T[]; stale: T[] } {
  const fresh: T[] = [];
  const stale: T[] = [];
  for (const item of parameters.items) {
    const observedAt = parameters.observedAt(item);
    (isStale({ observedAt, now: parameters.now, windowS: parameters.windowS }) ? stale : fresh).push(item);
  }
  return { fresh, stale };
}
