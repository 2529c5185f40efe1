import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema";
import { getTokenPrices, type TokenPriceRecord } from "../../storage/tokenPrices";
import { DEFILLAMA_CHAINS } from "../feeds/defillamaDexVolumes";
import { fetchDefillamaCoinPrices } from "../feeds/defillamaCoins";
import { addCounts, NO_COUNTS, type RowCounts } from "../feeds/checkRows";
import type { FeedRequestOptions } from "../feeds/fetchJson";
import type { PriceQuote } from "../rows/priceReading";
import { countsReport, errorMessage, requestsReport, type StepResult } from "./stepResult";

/** The source name of DefiLlama's coin prices in reports and in `token_prices.source`. */
export const COINS_SOURCE = "defillama-coins";

/**
 * Default least `confidence` (0–1, DefiLlama's own measure of a price) of a price that is used (`PRICE_MIN_CONFIDENCE`).
 * A price below it is dropped and counted: its token stays on its cached price (stale in time) or unpriced, never
 * valued with a doubtful price.
 */
export const DEFAULT_PRICE_MIN_CONFIDENCE = 0.9;

/** Coins per request: keeps the URL short (about 50 characters a coin). */
const COINS_PER_REQUEST = 50;

/** The prices a pass values USD figures with when the coins API is configured. */
export interface CoinPrices {
  /** By `<chainId>:<token>` (lower case): this pass's answer, else the cached one (with its older timestamp). */
  quotes: Map<string, PriceQuote>;
  /** This pass's answers, to cache in `token_prices`. */
  rows: TokenPriceRecord[];
}

/** Parameters of {@link readCoinPricesStep}. */
export interface ReadCoinPricesStepParameters {
  /** The store, read only: the cached prices a failed or partial answer falls back to. */
  db: Kysely<Database>;
  coinsUrl: string | undefined;
  /** The tokens of this pass's on-chain readings. */
  tokens: readonly { chainId: number; token: string }[];
  feedOptions: FeedRequestOptions;
  log: (line: string) => void;
  /** Least confidence of a used price; default {@link DEFAULT_PRICE_MIN_CONFIDENCE}. */
  minConfidence?: number;
}

/**
 * Source `defillama-coins`: current USD prices of the readings' tokens from DefiLlama's coins API, 50 coins a
 * request. Not configured (no report, null: prices stay the ones derived on chain) without a URL. A token the answer
 * lacks, or every token when the API fails, falls back to its cached price, whose older timestamp makes what it
 * prices stale after the freshness window. A price whose `confidence` is below `minConfidence` is not used and is
 * counted (report `dropped`); a price without a confidence is used. A token on a chain with no DefiLlama name is named
 * in the report's error (not ok). A coin of the wrong shape, an implausible price or timestamp, or one key answered
 * twice with different values is left out (its token falls back to its cached price) and counted (`rejectedRows`,
 * `conflicts`). Rows: tokens priced by this pass's answer. Throws only when the store cannot be read.
 *
 * @param {@link ReadCoinPricesStepParameters}
 */
export async function readCoinPricesStep(
  parameters: ReadCoinPricesStepParameters,
): Promise<StepResult<CoinPrices | null>> {
  const { db, coinsUrl, feedOptions, log, minConfidence = DEFAULT_PRICE_MIN_CONFIDENCE } = parameters;
  if (!coinsUrl) return { report: undefined, data: null };
  const quotes = new Map<string, PriceQuote>();
  const chainIds = [...new Set(parameters.tokens.map((t) => t.chainId))];
  for (const chainId of chainIds) {
    for (const [token, price] of await getTokenPrices(db, { chainId, source: COINS_SOURCE })) {
      quotes.set(`${chainId}:${token}`, { usd: price.priceUsd, at: price.observedAt, source: COINS_SOURCE });
    }
  }
  const wanted = new Map<string, { chainId: number; token: string }>();
  const unmapped = new Set<number>();
  for (const { chainId, token } of parameters.tokens) {
    const slug = DEFILLAMA_CHAINS[chainId]?.slug;
    if (slug) wanted.set(`${slug}:${token.toLowerCase()}`, { chainId, token: token.toLowerCase() });
    else unmapped.add(chainId);
  }
  const keys = [...wanted.keys()];
  const rows: TokenPriceRecord[] = [];
  const priced = new Set<string>();
  const errors: string[] = [...unmapped].map((chainId) => `chain ${chainId}: no DefiLlama chain name known`);
  let dropped = 0;
  let counts: RowCounts = NO_COUNTS;
  for (let i = 0; i < keys.length; i += COINS_PER_REQUEST) {
    const chunk = keys.slice(i, i + COINS_PER_REQUEST);
    try {
      const { coins: answer, ...left } = await fetchDefillamaCoinPrices({ ...feedOptions, coinsUrl, coins: chunk });
      counts = addCounts(counts, left);
      for (const key of chunk) {
        const coin = answer.get(key);
        const { chainId, token } = wanted.get(key)!;
        if (!coin) continue;
        priced.add(key);
        if (coin.confidence !== undefined && coin.confidence < minConfidence) {
          dropped++;
          continue;
        }
        rows.push({ chainId, token, priceUsd: coin.price, observedAt: coin.timestamp, source: COINS_SOURCE });
        const cached = quotes.get(`${chainId}:${token}`);
        if (!cached || cached.at <= coin.timestamp) {
          quotes.set(`${chainId}:${token}`, { usd: coin.price, at: coin.timestamp, source: COINS_SOURCE });
        }
      }
    } catch (error) {
      errors.push(errorMessage(error));
    }
  }
  const missing = keys.filter((key) => !priced.has(key));
  if (missing.length > 0 && errors.length === 0) log(`${COINS_SOURCE}: no price for ${missing.join(", ")}`);
  if (dropped > 0) log(`${COINS_SOURCE}: ${dropped} price(s) below confidence ${minConfidence} not used`);
  const report = {
    ...requestsReport(rows.length, errors),
    ...(dropped > 0 ? { dropped } : {}),
    ...countsReport(counts),
  };
  return { report, data: { quotes, rows } };
}
