import type { Kysely } from "kysely";
import { chunksOf, excludedOf } from "./batches";
import type { Database, TokenPrice } from "./schema";

/**
 * Caches token prices with the source's own timestamp. A row is replaced only by a price at least as recent, so an
 * older answer never overwrites a newer one. Multi-row upserts (chunked); of a token listed twice, the listing one
 * upsert per row would have left (the most recent, the last of equals) is written.
 *
 * @param db an open transaction (the pass's write).
 */
export async function upsertTokenPrices(db: Kysely<Database>, rows: readonly TokenPrice[]): Promise<void> {
  const winners = new Map<string, TokenPrice>();
  for (const row of rows) {
    const values = { ...row, token: row.token.toLowerCase() };
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
): Promise<Map<string, TokenPrice>> {
  const rows = await db
    .selectFrom("token_prices")
    .selectAll()
    .where("chain_id", "=", parameters.chainId)
    .where("source", "=", parameters.source)
    .execute();
  return new Map(rows.map((row) => [row.token, row]));
}
