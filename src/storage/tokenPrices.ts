import type { Kysely } from "kysely";
import { chunksOf, excludedOf } from "./batches";
import type { Database, TokenPrice } from "./schema";

/** A token's USD price with the time its source observed it. */
export type TokenPriceRecord = {
  chainId: number;
  /** The token's address (stored in lower case). */
  token: string;
  priceUsd: number;
  /** The source's own timestamp of the price (DefiLlama's `timestamp`), not when it was fetched. Unix seconds. */
  observedAt: number;
  /** `defillama-coins` or `onchain`. */
  source: string;
};

function toTokenPriceRecord(row: TokenPrice): TokenPriceRecord {
  return {
    chainId: Number(row.chain_id),
    token: row.token,
    priceUsd: Number(row.price_usd),
    observedAt: Number(row.observed_at),
    source: row.source,
  };
}

/**
 * Caches token prices with the source's own timestamp. A row is replaced only by a price at least as recent, so an
 * older answer never overwrites a newer one. Multi-row upserts (chunked); of a token listed twice, the listing one
 * upsert per row would have left (the most recent, the last of equals) is written.
 *
 * @param db an open transaction (the pass's write).
 */
export async function upsertTokenPrices(db: Kysely<Database>, prices: readonly TokenPriceRecord[]): Promise<void> {
  const winners = new Map<string, TokenPrice>();
  for (const price of prices) {
    const values: TokenPrice = {
      chain_id: price.chainId,
      token: price.token.toLowerCase(),
      price_usd: price.priceUsd,
      observed_at: price.observedAt,
      source: price.source,
    };
    const key = `${values.chain_id}:${values.token}`;
    const kept = winners.get(key);
    if (!kept || kept.observed_at <= values.observed_at) winners.set(key, values);
  }
  for (const chunk of chunksOf([...winners.values()], 5)) {
    await db
      .insertInto("token_prices")
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(["chain_id", "token"])
          .doUpdateSet(excludedOf(["price_usd", "observed_at", "source"]))
          .where("token_prices.observed_at", "<=", (eb) => eb.ref("excluded.observed_at")),
      )
      .execute();
  }
}

/** Cached prices of one chain's tokens from one source, by lower-case token address. */
export async function getTokenPrices(
  db: Kysely<Database>,
  parameters: { chainId: number; source: string },
): Promise<Map<string, TokenPriceRecord>> {
  const rows = await db
    .selectFrom("token_prices")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("source", "=", parameters.source)
    .execute();
  return new Map(rows.map((row) => [row.token, toTokenPriceRecord(row)]));
}
