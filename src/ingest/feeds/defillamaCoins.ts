import { z } from "zod";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();

/** One coin of DefiLlama's coins API `GET /prices/current/{coins}`. */
export const defillamaCoinSchema = z.object({
  /** USD per whole token. */
  price: finite.nonnegative(),
  symbol: z.string(),
  /** When DefiLlama observed the price, Unix seconds. */
  timestamp: z.number().int().nonnegative(),
  decimals: z.number().int().nonnegative().optional(),
  /** DefiLlama's confidence in the price, 0–1. */
  confidence: finite.min(0).max(1).optional(),
});
export type DefillamaCoin = z.infer<typeof defillamaCoinSchema>;

/** `{ coins: { "<chain>:<address>": coin } }`; coins DefiLlama has no price for are simply absent. */
export const defillamaCoinsResponseSchema = z.object({ coins: z.record(z.string(), defillamaCoinSchema) });

/** Parameters of {@link fetchDefillamaCoinPrices}. */
export type FetchDefillamaCoinPricesParameters = {
  /** e.g. `https://coins.llama.fi` (`DEFILLAMA_COINS_URL`). */
  coinsUrl: string;
  /** Coin keys `<chain>:<address>` (e.g. `ethereum:0xa0b8…`); one request for all of them. */
  coins: readonly string[];
} & FeedRequestOptions;

/**
 * Fetches current prices from DefiLlama's coins API (`{coinsUrl}/prices/current/{coin},{coin},…`), validated whole:
 * one malformed coin rejects the response (FeedValidationError), as for every feed.
 *
 * @param {@link FetchDefillamaCoinPricesParameters}
 * @returns the coins that have a price, by key in lower case (`ethereum:0xa0b8…`).
 * @example
 * import { fetchDefillamaCoinPrices } from "./ingest/feeds/defillamaCoins";
 * const prices = await fetchDefillamaCoinPrices({ coinsUrl: "https://coins.llama.fi", coins: ["ethereum:0xa0b8…"] });
 */
export async function fetchDefillamaCoinPrices(
  parameters: FetchDefillamaCoinPricesParameters,
): Promise<Map<string, DefillamaCoin>> {
  const { coinsUrl, coins, ...options } = parameters;
  if (coins.length === 0) return new Map();
  const body = await fetchJson({
    ...options,
    source: "defillama-coins",
    url: joinUrl(coinsUrl, `/prices/current/${coins.join(",")}`),
    schema: defillamaCoinsResponseSchema,
  });
  return new Map(Object.entries(body.coins).map(([key, coin]) => [key.toLowerCase(), coin]));
}
