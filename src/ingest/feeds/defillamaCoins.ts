import { z } from "zod";
import { checkRows, unixSeconds, usdPrice, type RowCounts } from "./checkRows";
import { fetchJson, joinUrl, type FeedRequestOptions } from "./fetchJson";

const finite = z.number().finite();

/** One coin of DefiLlama's coins API `GET /prices/current/{coins}`. */
export const defillamaCoinSchema = z.object({
  /** USD per whole token. */
  price: usdPrice,
  symbol: z.string(),
  /** When DefiLlama observed the price, Unix seconds. */
  timestamp: unixSeconds,
  decimals: z.number().int().nonnegative().optional(),
  /** DefiLlama's confidence in the price, 0–1. */
  confidence: finite.min(0).max(1).optional(),
});
export type DefillamaCoin = z.infer<typeof defillamaCoinSchema>;

/**
 * `{ coins: { "<chain>:<address>": coin } }`; coins DefiLlama has no price for are simply absent. The envelope; each
 * coin is checked on its own.
 */
export const defillamaCoinsResponseSchema = z.object({ coins: z.record(z.string(), z.unknown()) });

/** Parameters of {@link fetchDefillamaCoinPrices}. */
export type FetchDefillamaCoinPricesParameters = {
  /** e.g. `https://coins.llama.fi` (`DEFILLAMA_COINS_URL`). */
  coinsUrl: string;
  /** Coin keys `<chain>:<address>` (e.g. `ethereum:0xa0b8…`); one request for all of them. */
  coins: readonly string[];
} & FeedRequestOptions;

/**
 * Fetches current prices from DefiLlama's coins API (`{coinsUrl}/prices/current/{coin},{coin},…`): the envelope
 * validated whole, each coin on its own (a coin of the wrong shape, an implausible price or a timestamp out of range
 * is skipped and counted; one key answered twice in different letter case with different values is refused).
 *
 * @param {@link FetchDefillamaCoinPricesParameters}
 * @returns the coins that have a usable price, by key in lower case (`ethereum:0xa0b8…`), and what was left out.
 * @example
 * import { fetchDefillamaCoinPrices } from "./ingest/feeds/defillamaCoins";
 * const prices = await fetchDefillamaCoinPrices({ coinsUrl: "https://coins.llama.fi", coins: ["ethereum:0xa0b8…"] });
 */
export async function fetchDefillamaCoinPrices(
  parameters: FetchDefillamaCoinPricesParameters,
): Promise<{ coins: Map<string, DefillamaCoin> } & RowCounts> {
  const { coinsUrl, coins, ...options } = parameters;
  if (coins.length === 0) return { coins: new Map(), rejectedRows: 0, conflicts: 0, reasons: [] };
  const body = await fetchJson({
    ...options,
    source: "defillama-coins",
    url: joinUrl(coinsUrl, `/prices/current/${coins.join(",")}`),
    schema: defillamaCoinsResponseSchema,
  });
  const entries = Object.entries(body.coins);
  // Each coin carries its key in lower case: two spellings of one key with the same values are one coin.
  const items = entries.map(([key, coin]) =>
    coin !== null && typeof coin === "object" && !Array.isArray(coin) ? { ...coin, key: key.toLowerCase() } : coin,
  );
  const { rows, rejectedRows, conflicts, reasons } = checkRows({
    items,
    path: "coins",
    schema: defillamaCoinSchema.extend({ key: z.string() }),
    key: (coin) => coin.key.toLowerCase(),
    keyName: "coin",
    label: (i) => `coins[${JSON.stringify(entries[i][0])}]`,
  });
  return {
    coins: new Map(rows.map(({ key, ...coin }) => [key.toLowerCase(), coin])),
    rejectedRows,
    conflicts,
    reasons,
  };
}
