/** How the pages print figures. `null` is "not measured" and prints as a dash with a label for screen readers. */

const usdWhole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const usdCompact = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 1,
});

/** The text shown for a value that is not measured. */
export const NOT_MEASURED = "—";

/** `$1,234,567`, or a dash for null. */
export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : usdWhole.format(value);
}

/** `$1.2M`, for chart labels. */
export function formatUsdCompact(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : usdCompact.format(value);
}

/** `4.50 %` (yields are stored as a percent already: never multiplied by 100 here). */
export function formatPct(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : `${value.toFixed(2)} %`;
}

/** A plain number with grouping (`12,345`), or a dash. */
export function formatNumber(value: number | null | undefined, fractionDigits = 0): string {
  if (value === null || value === undefined) return NOT_MEASURED;
  return value.toLocaleString("en-US", { maximumFractionDigits: fractionDigits });
}

/** Unix seconds as `2026-01-15 12:00 UTC`, or a dash. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return NOT_MEASURED;
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Unix seconds as the UTC day `2026-01-15` (the store's own day function). */
export { utcDay as formatDay } from "../storage/poolDaily";

/** How long ago `seconds` was, relative to `now` (`5 min`, `2 h`, `3 d`). */
export function formatAge(seconds: number | null, now: number): string {
  if (seconds === null) return "never observed";
  const age = Math.max(0, now - seconds);
  if (age < 90) return `${age} s ago`;
  if (age < 90 * 60) return `${Math.round(age / 60)} min ago`;
  if (age < 36 * 3600) return `${Math.round(age / 3600)} h ago`;
  return `${Math.round(age / 86_400)} d ago`;
}

/** The chain's name for the three default chains, else `chain <id>`. */
export function chainName(chainId: number): string {
  const names: Record<number, string> = { 1: "Ethereum", 42161: "Arbitrum One", 8453: "Base", 31337: "Hardhat" };
  return names[chainId] ?? `chain ${chainId}`;
}
