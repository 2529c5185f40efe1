import type { Kysely } from "kysely";
import type { Database, TokenPrice } from "./schema";

/**
 * Caches token prices with the source's own timestamp. A row is replaced only by a price at least as recent, so an
 * older answer never overwrites a newer one.
 *
 * @param db an open transaction (the pass's write).
 */
export async function upsertTokenPrices(db: Kysely<Database>, rows: readonly TokenPrice[]): Promise<void> {
  for (const row of rows) {
    const values = { ...row, token: row.token.toLowerCase() };
    await db
      .insertInto("token_prices")
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(["chain_id", "token"])
          .doUpdateSet({ price_usd: values.price_usd, observed_at: values.observed_at, source: values.source })
          .where("token_prices.observed_at", "<=", values.observed_at),
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
