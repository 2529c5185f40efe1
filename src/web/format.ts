import { html, type Html } from "./html";

/**
 * How the pages print figures, in one place. `null` is "not measured" and prints as a dash.
 *
 * - **Amounts**: compact (`$38.4M`) where a figure is read at a glance, always with the exact value on hover
 *   ({@link usdAmount}: `<data value title>`); exact (`$38,396,611`, {@link formatUsd}) in the tables that are a
 *   chart's data.
 * - **Confidence**: a whole percentage, `85 %` ({@link formatConfidence}); the attestation signs two digits, so it is
 *   exact.
 * - **Yields**: a percent with its basis, `4.50 % APY` (the yields feed's APY) or `3.20 % APR` (a lending reserve's
 *   rate as Aave states it, not compounded) ({@link formatRate}).
 * - **Times**: one format, `2026-01-15 12:00 UTC` ({@link formatTime}, in a `<time>` element by {@link timeTag}); an
 *   age (`5 min ago`) is only ever added beside it.
 */

const usdWhole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const usdCompact = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 1,
});

/** The text shown for a value that is not measured. */
export const NOT_MEASURED = "—";

/** `$1,234,567`, or a dash for null: the exact amount. */
export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : usdWhole.format(value);
}

/** `$1.2M`, or a dash: the compact amount (chart labels, and {@link usdAmount}). */
export function formatUsdCompact(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : usdCompact.format(value);
}

/**
 * A compact amount with its exact value on hover and in the markup:
 * `<data value="38396611" title="$38,396,611">$38.4M</data>`; a dash for null.
 */
export function usdAmount(value: number | null | undefined): Html {
  if (value === null || value === undefined) return html`${NOT_MEASURED}`;
  return html`<data class="amount" value="${value}" title="${formatUsd(value)}">${formatUsdCompact(value)}</data>`;
}

/** `4.50 %` (rates are stored as a percent already: never multiplied by 100 here). */
export function formatPct(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : `${value.toFixed(2)} %`;
}

/** Seconds in Aave's year: its app compounds the per-second rate over this many seconds. */
const SECONDS_PER_YEAR = 31_536_000;

/**
 * A lending reserve's rate as Aave's app shows it: the APY compounded each second from the APR the reserve reports,
 * with that APR beside it, `3.25 % APY (3.20 % APR)`, or a dash.
 */
export function formatLendingRate(aprPct: number | null | undefined): string {
  if (aprPct === null || aprPct === undefined) return NOT_MEASURED;
  const apyPct = ((1 + aprPct / 100 / SECONDS_PER_YEAR) ** SECONDS_PER_YEAR - 1) * 100;
  return `${formatPct(apyPct)} APY (${formatPct(aprPct)} APR)`;
}

/** A yearly rate with its basis: `4.50 % APY` (compounded, the yields feed's) or `3.20 % APR` (Aave's rate as read). */
export function formatRate(value: number | null | undefined, basis: "APY" | "APR"): string {
  return value === null || value === undefined ? NOT_MEASURED : `${formatPct(value)} ${basis}`;
}

/** A share of 1 as a percentage with one decimal, `78.3 %` (utilisation), or a dash. */
export function formatShare(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : `${(value * 100).toFixed(1)} %`;
}

/** A claim's confidence (0–1, two digits) as a whole percentage, `85 %`, or a dash. */
export function formatConfidence(value: number | null | undefined): string {
  return value === null || value === undefined ? NOT_MEASURED : `${Math.round(value * 100)} %`;
}

/** A plain number with grouping (`12,345`), or a dash. */
export function formatNumber(value: number | null | undefined, fractionDigits = 0): string {
  if (value === null || value === undefined) return NOT_MEASURED;
  return value.toLocaleString("en-US", { maximumFractionDigits: fractionDigits });
}

/** Unix seconds as `2026-01-15 12:00 UTC`, or a dash: the one time format of every page. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return NOT_MEASURED;
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A time in the one format inside `<time datetime>`, or a dash. */
export function timeTag(seconds: number | null | undefined): Html {
  if (seconds === null || seconds === undefined) return html`${NOT_MEASURED}`;
  return html`<time datetime="${new Date(seconds * 1000).toISOString()}">${formatTime(seconds)}</time>`;
}

/** Unix seconds as the UTC day `2026-01-15` (the store's own day function). */
export { utcDay as formatDay } from "../storage/poolDaily";

/** How long ago `seconds` was, relative to `now` (`5 min ago`, `2 h ago`, `3 d ago`). */
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

/** The venues' names as their own sites write them, by the store's protocol id (one mapping for every page). */
const PROTOCOL_NAMES: Record<string, string> = {
  "uniswap-v2": "Uniswap V2",
  "uniswap-v3": "Uniswap V3",
  "aave-v3": "Aave v3",
  "sushiswap-v2": "SushiSwap V2",
  sushiswap: "SushiSwap",
  aerodrome: "Aerodrome",
};

/** A protocol id as a person reads it, `uniswap-v2` → `Uniswap V2`; an id not in the mapping is shown as it is. */
export function protocolName(protocol: string): string {
  return PROTOCOL_NAMES[protocol] ?? protocol;
}

/**
 * A count with its noun in the right number, `1 pool`, `2 pools`, `0 pools` (grouped: `1,204 claims`).
 *
 * @param plural the plural when it is not the singular plus `s`.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}

/** An address cut short for a line that cannot hold it, `0x1234…abcd`: show the whole one beside it (a title). */
export function shortAddress(address: string): string {
  return address.length <= 13 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** A subscription's deliveries in words, as its row says them: the page renders it, the client bundle rewrites it. */
export function deliveriesText(d: { pending: number; delivered: number; failed: number }): string {
  return `${d.pending} pending, ${d.delivered} delivered, ${d.failed} failed`;
}
