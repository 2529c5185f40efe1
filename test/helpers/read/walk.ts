/** Every (path, key, value) of a JSON payload, depth first. */
export function walk(value: unknown, path = "$"): { path: string; key: string | null; value: unknown }[] {
  const out: { path: string; key: string | null; value: unknown }[] = [{ path, key: null, value }];
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...walk(item, `${path}[${i}]`)));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const child = walk(item, `${path}.${key}`);
      child[0].key = key;
      out.push(...child);
    }
  }
  return out;
}

/** The words of a key (`claimsGraded` → claims, graded; `volume_24h` → volume, 24h). */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/**
 * Words that would name a composite score or a rank (no such field anywhere:
 * docs/market-api.md#rules-every-surface-follows).
 */
const SCORE_WORDS = new Set([
  "score",
  "scores",
  "scoring",
  "rank",
  "ranks",
  "ranked",
  "ranking",
  "rating",
  "ratings",
  "grade",
  "grades",
]);

/** The paths of keys that name a score, rank, rating or grade. */
export function scoreKeys(payload: unknown): string[] {
  return walk(payload)
    .filter(({ key }) => key !== null && words(key).some((word) => SCORE_WORDS.has(word)))
    .map(({ path }) => path);
}

/** The paths of anything that carries a date or a time: a key naming one, a date-like string, a Unix-seconds number. */
export function timeLike(payload: unknown, around: number): string[] {
  const timeWords = new Set([
    "at",
    "date",
    "dates",
    "day",
    "days",
    "time",
    "timestamp",
    "eta",
    "asof",
    "as",
    "of",
    "since",
    "until",
    "expiry",
    "expires",
  ]);
  return walk(payload)
    .filter(({ key, value }) => {
      if (key !== null && (words(key).some((word) => timeWords.has(word)) || /At$|^asOf$/.test(key))) return true;
      if (typeof value === "string" && /\d{4}-\d{2}-\d{2}|\d{2}:\d{2}|\b(19|20)\d{2}\b/.test(value)) return true;
      // A number within ten years of the clock reads as Unix seconds.
      return typeof value === "number" && Math.abs(value - around) < 10 * 365 * 86_400;
    })
    .map(({ path }) => path);
}
