import type { Store } from "../../../src/storage/openStore";
import { DAY, M, MARKET_NOW } from "../read/seedMarket";
import { insertAttestation } from "../service/app";

/** The UTC day `i` days before the market fixture's day. */
const dayBefore = (i: number) => new Date((MARKET_NOW - i * DAY) * 1000).toISOString().slice(0, 10);

/** Days of the stale pool d's history with no row at all (a gap, not a zero). */
export const D_GAP_DAYS = [dayBefore(12), dayBefore(13)];

/** The first day (counting back) of d's rows that were backfilled from the feed's daily series (no block). */
export const D_FEED_FROM = 60;

/**
 * What the pool pages need beyond the market fixture: the stale, unattested AMM pool d gets 117 days of daily lows
 * (the older ones backfilled from the feed's daily series, two days missing), the lending reserve e an older, expired
 * claim and realistic claim depths (its floors sit among its lows), and e's on-chain state its borrow rate and totals
 * (utilisation 25 %).
 */
export async function seedPoolPages(store: Store): Promise<void> {
  for (let i = 1; i <= 117; i++) {
    const day = dayBefore(i);
    if (D_GAP_DAYS.includes(day)) continue;
    const at = MARKET_NOW - i * DAY;
    await store.db
      .insertInto("pool_daily")
      .values({
        chain_id: 8453,
        address: M.d,
        day,
        min_depth_usd: 4_000_000 + ((i * 37) % 11) * 100_000,
        min_observed_at: at,
        min_block: i >= D_FEED_FROM ? null : String(1000 + i),
        last_observed_at: at,
        samples: i >= D_FEED_FROM ? 1 : 24,
      })
      .execute();
  }
  await insertAttestation(store, {
    chainId: 1,
    address: M.e,
    issuedAt: MARKET_NOW - 45 * DAY,
    expiry: MARKET_NOW - 44 * DAY,
    horizonDays: 30,
    confidenceHundredths: 92,
  });
  await store.db
    .updateTable("attestations")
    .set({ depth_at_issuance_usd: 16_000_000 })
    .where("address", "=", M.e)
    .where("issued_at", "=", MARKET_NOW - 45 * DAY)
    .execute();
  await store.db
    .updateTable("attestations")
    .set({ depth_at_issuance_usd: 18_000_000 })
    .where("address", "=", M.e)
    .where("issued_at", "=", MARKET_NOW - 2 * DAY)
    .execute();
  await store.db
    .updateTable("pools")
    .set({
      state_json: JSON.stringify({
        supplied: "24000000000000",
        borrowed: "6000000000000",
        decimals: 6,
        variableBorrowRatePercent: 4.75,
      }),
    })
    .where("address", "=", M.e)
    .execute();
}
