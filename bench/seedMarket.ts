/**
 * Seeds a SQLite store at scale for the market reads of `bench/api.ts`: `pools` pools (80 % AMM over three venues,
 * 20 % Aave v3 reserves, on chains 1 / 42161 / 8453, 5 % of them stale), `days` days of daily lows and of Swap-log
 * volume per pool, one or two campaigns per pool, the dex-volumes feed, one attestation per pool, a few registry
 * events and `events` activity events. Rows are generated in SQL (recursive CTEs), so seeding 1,000 × 365 days takes
 * seconds.
 */
import { sql } from "kysely";
import { keccak256, stringToHex } from "viem";
import type { Store } from "../src/storage/openStore";

const DAY = 86_400;
const CHAINS = [1, 42161, 8453];
const VENUES = ["uniswap-v2", "sushiswap", "curve"];

export type BenchPool = { id: string; chainId: number; address: string };

/** Inserts the pools; returns their qualified ids. */
async function seedPools(store: Store, count: number, now: number): Promise<BenchPool[]> {
  const pools: BenchPool[] = [];
  const rows = [];
  for (let i = 0; i < count; i++) {
    const address = `0x${keccak256(stringToHex(`market pool ${i}`)).slice(26)}`;
    const chainId = CHAINS[i % 3];
    const lending = i % 5 === 4;
    const observed = i % 20 === 7 ? now - 7_200 : now - 60;
    pools.push({ id: `eip155:${chainId}:${address}`, chainId, address });
    rows.push({
      chain_id: chainId,
      address,
      kind: lending ? ("lending" as const) : ("amm" as const),
      symbol: `TKN${i}-USDC`,
      protocol: lending ? "aave-v3" : VENUES[i % 3],
      merkl_id: `opp-${i}`,
      depth_usd: 1_000_000 + i * 1_000,
      depth_observed_at: observed,
      volume_24h_usd: lending ? null : 50_000 + i * 10,
      volume_observed_at: lending ? null : observed,
      apy_percent: lending ? null : 3 + (i % 7),
      apy_observed_at: lending ? null : observed,
      exitable_usd: lending ? 1_000_000 + i * 1_000 : null,
      exitable_observed_at: lending ? observed : null,
      supply_rate_percent: lending ? 2.5 : null,
      supply_rate_observed_at: lending ? observed : null,
      created_at: now - 400 * DAY,
      updated_at: now,
    });
  }
  for (let i = 0; i < rows.length; i += 200)
    await store.db
      .insertInto("pools")
      .values(rows.slice(i, i + 200))
      .execute();
  return pools;
}

/** Daily lows and Swap-log volume: `days` rows per pool (volume for AMM pools only), ending today. */
async function seedHistory(store: Store, days: number, now: number): Promise<void> {
  const today = new Date(now * 1000).toISOString().slice(0, 10);
  await sql`
    INSERT INTO pool_daily (chain_id, address, day, min_depth_usd, min_observed_at, min_block, last_observed_at, samples)
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${days - 1})
    SELECT p.chain_id, p.address, date(${today}, '-' || n.i || ' days'),
           p.depth_usd * (0.7 + ((n.i * 7 + length(p.symbol)) % 30) / 100.0),
           ${now} - n.i * ${DAY}, '1', ${now} - n.i * ${DAY}, 24
    FROM pools p CROSS JOIN n`.execute(store.db);
  await sql`
    INSERT INTO pool_volume_daily (chain_id, address, day, volume_usd, swaps, first_block, last_block, observed_at)
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${days - 1})
    SELECT p.chain_id, p.address, date(${today}, '-' || n.i || ' days'),
           10000 + ((n.i * 13 + length(p.address)) % 97) * 100, 40, '1', '2',
           CASE WHEN n.i = 0 THEN ${now - 60} ELSE ${now} - n.i * ${DAY} + ${DAY} END
    FROM pools p CROSS JOIN n WHERE p.kind = 'amm'`.execute(store.db);
}

/** Campaigns, the dex-volumes feed, one attestation per pool and the registry's events. */
async function seedMarketRows(store: Store, pools: BenchPool[], days: number, now: number): Promise<void> {
  const campaigns = pools.flatMap((pool, i) =>
    Array.from({ length: 1 + (i % 2) }, (_, k) => ({
      id: `c-${i}-${k}`,
      distribution_chain_id: pool.chainId,
      chain_id: pool.chainId,
      opportunity_id: `opp-${i}`,
      identifier: pool.address,
      name: `campaign ${i}/${k}`,
      type: "CLAMM",
      status: "LIVE",
      reward_token: pool.address,
      amount: "1000",
      apr_percent: 10,
      start_ts: now - 10 * DAY,
      end_ts: now + ((i % 60) + k * 7) * DAY,
      observed_at: now - 60,
    })),
  );
  for (let i = 0; i < campaigns.length; i += 200) {
    await store.db
      .insertInto("campaigns")
      .values(campaigns.slice(i, i + 200))
      .execute();
  }
  const feed = ["Ethereum", "Arbitrum", "Base"].flatMap((chain) =>
    ["Uniswap V2", "SushiSwap", "Curve", "Aerodrome"].flatMap((protocol) =>
      Array.from({ length: days }, (_, d) => ({
        chain,
        protocol,
        day: new Date((now - d * DAY) * 1000).toISOString().slice(0, 10),
        volume_usd: 1e7 + d,
        observed_at: now - 600,
      })),
    ),
  );
  for (let i = 0; i < feed.length; i += 200)
    await store.db
      .insertInto("dex_volumes")
      .values(feed.slice(i, i + 200))
      .execute();
  const attestations = pools.map((pool, i) => ({
    id: keccak256(stringToHex(`attestation ${i}`)),
    chain_id: pool.chainId,
    address: pool.address,
    issued_at: now - DAY,
    expiry: now + DAY,
    horizon_days: 30,
    confidence_hundredths: 85,
    canonical: "{}",
    signature: "0x",
    attester: "0x0000000000000000000000000000000000000001",
    floor: 0.5,
    depth_at_issuance_usd: 1_000_000,
    model: "bench",
    inputs_hash: "0x",
    outcome: "pending",
    eip712_json: null,
    created_at: now - DAY,
  }));
  for (let i = 0; i < attestations.length; i += 200) {
    await store.db
      .insertInto("attestations")
      .values(attestations.slice(i, i + 200))
      .execute();
  }
}

/** `count` activity events (every fifth about a pool), plus the registry's. */
async function seedActivity(store: Store, count: number, now: number): Promise<void> {
  await sql`
    INSERT INTO activity_events (kind, at, chain_id, address, summary, data_json)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    SELECT CASE i % 4 WHEN 0 THEN 'ingest.pass' WHEN 1 THEN 'attestation.issued' WHEN 2 THEN 'pool.fresh' ELSE 'pool.stale' END,
           ${now} - (${count} - i) * 10,
           CASE WHEN i % 5 = 0 THEN 1 ELSE NULL END,
           CASE WHEN i % 5 = 0 THEN '0x' || printf('%040x', i) ELSE NULL END,
           'bench event ' || i, '{"i":' || i || '}'
    FROM n`.execute(store.db);
  for (const [kind, attester] of [
    ["registry.Registered", "0x00000000000000000000000000000000000000a1"],
    ["registry.Registered", "0x00000000000000000000000000000000000000a2"],
  ]) {
    await store.db
      .insertInto("activity_events")
      .values({
        kind,
        at: now,
        chain_id: null,
        address: null,
        summary: kind,
        data_json: JSON.stringify({ attester, bond: "1000000000000000000" }),
      })
      .execute();
  }
}

/**
 * Seeds the whole market data set.
 *
 * @returns the pools' qualified ids (for `/compare`).
 */
export async function seedMarketBench(
  store: Store,
  parameters: { pools: number; days: number; events: number; now: number },
): Promise<BenchPool[]> {
  const { now } = parameters;
  const pools = await seedPools(store, parameters.pools, now);
  await seedHistory(store, parameters.days, now);
  await seedMarketRows(store, pools, parameters.days, now);
  await seedActivity(store, parameters.events, now);
  return pools;
}
