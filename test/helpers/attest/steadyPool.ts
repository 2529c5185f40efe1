import type { Kysely } from "kysely";
import type { PoolConfig } from "../../../src/model/poolConfig";
import { recordDailyDepth } from "../../../src/storage/poolDaily";
import { upsertPool, type PoolValues } from "../../../src/storage/pools";
import type { Database } from "../../../src/storage/schema";

export const DAY = 86_400;
/** Day 0 of the depth history, 06:00 UTC. */
export const START = Date.UTC(2026, 0, 1, 6) / 1000;
/** Day 40, 07:00 UTC: days 0..39 are complete. */
export const NOW = START + 40 * DAY + 3600;
/** The pool the issuance suites attest. */
export const POOL: PoolConfig = {
  chainId: 8453,
  address: "0x00000000000000000000000000000000000000aa",
  kind: "amm",
  symbol: "WETH-USDC",
  protocol: "uniswap-v2",
};

/**
 * 41 days of steady $1M depth (days 0..40, block `block(day)`), the last observation 10 minutes before NOW, and the
 * pool's row with that depth: the pool qualifies for an attestation at NOW.
 */
export async function seedSteadyPool(
  db: Kysely<Database>,
  options: {
    pool?: PoolConfig;
    /** More columns of the pool's row. */
    values?: PoolValues;
    /** The row's `updated_at` (NOW - 600 by default). */
    now?: number;
    /** The block of day `day`'s observation (`day + 1` by default). */
    block?: (day: number) => string;
  } = {},
): Promise<void> {
  const pool = options.pool ?? POOL;
  const block = options.block ?? ((day: number) => String(day + 1));
  for (let day = 0; day <= 40; day++) {
    const at = day === 40 ? NOW - 600 : START + day * DAY;
    await recordDailyDepth(db, {
      chainId: pool.chainId,
      address: pool.address,
      depthUsd: 1_000_000,
      observedAt: at,
      block: block(day),
    });
  }
  await upsertPool(db, {
    ...pool,
    values: { depth_usd: 1_000_000, depth_observed_at: NOW - 600, depth_block: "41", ...options.values },
    now: options.now ?? NOW - 600,
  });
}
