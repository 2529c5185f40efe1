import { appendActivity } from "../../../src/storage/activity";
import type { Store } from "../../../src/storage/openStore";
import type { NewPool } from "../../../src/storage/schema";
import { insertAttestation } from "../service/app";

/** The market fixture's clock: 2026-01-15T12:00:00Z (a day in progress, so "today" is partial). */
export const MARKET_NOW = Date.UTC(2026, 0, 15, 12) / 1000;
export const DAY = 86_400;
export const HOUR = 3_600;
/** Seconds after the end of a UTC day (`YYYY-MM-DD`). */
const afterEnd = (day: string, s = 60) => Date.parse(`${day}T00:00:00Z`) / 1000 + DAY + s;

const FRESH = MARKET_NOW - 120;
const STALE = MARKET_NOW - 2 * HOUR;

/** The fixture's pools (addresses lower-case). */
export const M = {
  /** chain 1 uniswap-v2 AMM: everything fresh; 1 campaign (matched by opportunity id). */
  a: "0xa000000000000000000000000000000000000001",
  /** chain 1 sushiswap AMM: fresh depth and volume, STALE apy; 2 campaigns (matched by identifier). */
  b: "0xb000000000000000000000000000000000000002",
  /** chain 8453 uniswap-v2 AMM: fresh depth, STALE volume (held out of every volume total). */
  c: "0xc000000000000000000000000000000000000003",
  /** chain 8453 uniswap-v2 AMM: STALE depth, fresh volume (not in byTurnover); 1 campaign. */
  d: "0xd000000000000000000000000000000000000004",
  /** chain 1 aave-v3 lending: all fresh; attested (unexpired); 1 campaign. */
  e: "0xe000000000000000000000000000000000000005",
  /** chain 42161 aave-v3 lending: fresh depth and exitability, STALE supply rate; its attestation expired. */
  f: "0xf000000000000000000000000000000000000006",
  /** chain 42161 uniswap-v2 AMM: never observed. */
  g: "0x9000000000000000000000000000000000000007",
  /** chain 42161 uniswap-v2 AMM: fresh depth equal to a's (a tie in compare), nothing else measured. */
  h: "0x8000000000000000000000000000000000000008",
} as const;

export const id = (chainId: number, address: string) => `eip155:${chainId}:${address}`;
export const IDS = {
  a: id(1, M.a),
  b: id(1, M.b),
  c: id(8453, M.c),
  d: id(8453, M.d),
  e: id(1, M.e),
  f: id(42161, M.f),
  g: id(42161, M.g),
  h: id(42161, M.h),
};

type PoolSeed = Pick<NewPool, "chain_id" | "address" | "kind" | "symbol" | "protocol"> & Partial<NewPool>;

async function pool(store: Store, row: PoolSeed): Promise<void> {
  await store.db
    .insertInto("pools")
    .values({ created_at: MARKET_NOW - 200 * DAY, updated_at: MARKET_NOW, ...row })
    .execute();
}

async function seedPools(store: Store): Promise<void> {
  const uni = { kind: "amm" as const, protocol: "uniswap-v2" };
  const aave = { kind: "lending" as const, protocol: "aave-v3" };
  await pool(store, {
    chain_id: 1,
    address: M.a,
    symbol: "WETH-USDC",
    ...uni,
    merkl_id: "OPP-A",
    depth_usd: 1_000_000,
    depth_observed_at: MARKET_NOW - 60,
    volume_24h_usd: 500_000,
    volume_observed_at: FRESH,
    apy_percent: 4.5,
    apy_observed_at: MARKET_NOW - 300,
  });
  await pool(store, {
    chain_id: 1,
    address: M.b,
    symbol: "WBTC-USDC",
    kind: "amm",
    protocol: "sushiswap",
    merkl_id: M.b.toUpperCase().replace("0X", "0x"),
    depth_usd: 2_000_000,
    depth_observed_at: FRESH,
    volume_24h_usd: 200_000,
    volume_observed_at: FRESH,
    apy_percent: 7,
    apy_observed_at: STALE,
  });
  await pool(store, {
    chain_id: 8453,
    address: M.c,
    symbol: "AERO-USDC",
    ...uni,
    depth_usd: 300_000,
    depth_observed_at: FRESH,
    volume_24h_usd: 900_000,
    volume_observed_at: STALE,
  });
  await pool(store, {
    chain_id: 8453,
    address: M.d,
    symbol: "CBETH-WETH",
    ...uni,
    merkl_id: "opp-d",
    depth_usd: 5_000_000,
    depth_observed_at: STALE,
    volume_24h_usd: 100_000,
    volume_observed_at: FRESH,
  });
  await pool(store, {
    chain_id: 1,
    address: M.e,
    symbol: "aUSDC",
    ...aave,
    merkl_id: "opp-e",
    depth_usd: 18_000_000,
    depth_observed_at: FRESH,
    exitable_usd: 18_000_000,
    exitable_observed_at: FRESH,
    supply_rate_percent: 3.2,
    supply_rate_observed_at: FRESH,
  });
  await pool(store, {
    chain_id: 42161,
    address: M.f,
    symbol: "aWETH",
    ...aave,
    depth_usd: 7_000_000,
    depth_observed_at: FRESH,
    exitable_usd: 7_000_000,
    exitable_observed_at: FRESH,
    supply_rate_percent: 1.1,
    supply_rate_observed_at: STALE,
  });
  await pool(store, { chain_id: 42161, address: M.g, symbol: "NEW-USDC", ...uni });
  await pool(store, {
    chain_id: 42161,
    address: M.h,
    symbol: "ARB-USDC",
    ...uni,
    depth_usd: 1_000_000,
    depth_observed_at: FRESH,
  });
}

/** Swap-log volume rows: a and d every day, b from 01-13 (a 0 on 01-14), c (stale) every day; today partial. */
async function seedVolume(store: Store): Promise<void> {
  const rows: [string, number, string, number, number][] = [
    [M.a, 1, "2026-01-12", 100, afterEnd("2026-01-12")],
    [M.a, 1, "2026-01-13", 200, afterEnd("2026-01-13")],
    [M.a, 1, "2026-01-14", 300, afterEnd("2026-01-14")],
    [M.a, 1, "2026-01-15", 50, FRESH],
    [M.b, 1, "2026-01-13", 1000, afterEnd("2026-01-13")],
    [M.b, 1, "2026-01-14", 0, afterEnd("2026-01-14")],
    [M.b, 1, "2026-01-15", 10, FRESH],
    [M.c, 8453, "2026-01-12", 5000, afterEnd("2026-01-12")],
    [M.c, 8453, "2026-01-13", 5000, afterEnd("2026-01-13")],
    [M.c, 8453, "2026-01-14", 5000, afterEnd("2026-01-14")],
    [M.d, 8453, "2026-01-11", 7, afterEnd("2026-01-11")],
    [M.d, 8453, "2026-01-12", 1, afterEnd("2026-01-12")],
    [M.d, 8453, "2026-01-13", 2, afterEnd("2026-01-13")],
    [M.d, 8453, "2026-01-14", 3, afterEnd("2026-01-14")],
    [M.d, 8453, "2026-01-15", 4, FRESH],
  ];
  for (const [address, chainId, day, volume, observedAt] of rows) {
    await store.db
      .insertInto("pool_volume_daily")
      .values({
        chain_id: chainId,
        address,
        day,
        volume_usd: volume,
        swaps: volume === 0 ? 0 : 3,
        first_block: "1",
        last_block: "2",
        observed_at: observedAt,
      })
      .execute();
  }
  const feed: [string, string, string, number, number][] = [
    ["Ethereum", "Uniswap V2", "2026-01-12", 1e6, MARKET_NOW - 600],
    ["Ethereum", "Uniswap V2", "2026-01-13", 2e6, MARKET_NOW - 600],
    ["Ethereum", "Uniswap V2", "2026-01-14", 3e6, MARKET_NOW - 600],
    ["Ethereum", "Uniswap V2", "2026-01-15", 9e6, MARKET_NOW - 600],
    ["Ethereum", "Curve", "2026-01-14", 5e5, MARKET_NOW - 600],
    ["Base", "Aerodrome", "2026-01-14", 4e6, MARKET_NOW - DAY],
  ];
  for (const [chain, protocol, day, volume, observedAt] of feed) {
    await store.db
      .insertInto("dex_volumes")
      .values({ chain, protocol, day, volume_usd: volume, observed_at: observedAt })
      .execute();
  }
}

/** Campaigns: a once (by opportunity id), b twice (by identifier), d and e once, and a decoy on another chain. */
async function seedCampaigns(store: Store): Promise<void> {
  const campaign = (id: string, chainId: number, opportunity: string, identifier: string, end: number | null) => ({
    id,
    distribution_chain_id: chainId,
    chain_id: chainId,
    opportunity_id: opportunity,
    identifier,
    name: `campaign ${id}`,
    type: "CLAMM",
    status: "LIVE",
    reward_token: "0x1111111111111111111111111111111111111111",
    amount: "1000",
    apr_percent: 12,
    start_ts: MARKET_NOW - 10 * DAY,
    end_ts: end,
    observed_at: MARKET_NOW - 60,
  });
  const feb1 = Date.UTC(2026, 1, 1, 12) / 1000;
  for (const row of [
    campaign("ca", 1, "opp-a", "0xaaaa", feb1),
    campaign("cb1", 1, "opp-b-id", M.b, Date.UTC(2026, 0, 20) / 1000),
    campaign("cb2", 1, "opp-b-id", M.b, feb1 + 3600),
    campaign("cd", 8453, "opp-d", "0xdddd", feb1),
    campaign("ce", 1, "opp-e", "0xeeee", Date.UTC(2026, 2, 1) / 1000),
    campaign("ce-open", 1, "opp-e", "0xeeee", null),
    campaign("decoy", 8453, "opp-a", "0xaaaa", Date.UTC(2027, 0, 1) / 1000),
  ]) {
    await store.db.insertInto("campaigns").values(row).execute();
  }
}

/** Attestations (e live, f expired, a live), lending daily lows, registry events, a liquidity request. */
async function seedClaims(store: Store): Promise<void> {
  const attest = (chainId: number, address: string, expiry: number) =>
    insertAttestation(store, {
      chainId,
      address,
      issuedAt: MARKET_NOW - 2 * DAY,
      expiry,
      horizonDays: 30,
      confidenceHundredths: 85,
    });
  await attest(1, M.e, MARKET_NOW + DAY);
  await attest(42161, M.f, MARKET_NOW - DAY);
  await attest(1, M.a, MARKET_NOW + DAY);
  // e: 90 days of lows (the lowest 9,000,000, half of now); f: 30 days (lowest 6,300,000).
  for (let i = 1; i <= 90; i++) {
    const at = MARKET_NOW - i * DAY;
    const day = new Date(at * 1000).toISOString().slice(0, 10);
    const lows: [string, number, number][] = [[M.e, 1, i === 40 ? 9_000_000 : 17_000_000]];
    if (i <= 30) lows.push([M.f, 42161, i === 5 ? 6_300_000 : 7_000_000]);
    for (const [address, chainId, low] of lows) {
      await store.db
        .insertInto("pool_daily")
        .values({
          chain_id: chainId,
          address,
          day,
          min_depth_usd: low,
          min_observed_at: at,
          min_block: "1",
          last_observed_at: at,
          samples: 1,
        })
        .execute();
    }
  }
  const wei = "1000000000000000000";
  await appendActivity(store.db, [
    { kind: "registry.Registered", at: MARKET_NOW - 9 * DAY, summary: "x", data: { attester: "0xAAA1", bond: wei } },
    { kind: "registry.Registered", at: MARKET_NOW - 8 * DAY, summary: "y", data: { attester: "0xAAA2", bond: wei } },
    { kind: "registry.UnbondRequested", at: MARKET_NOW - 7 * DAY, summary: "y", data: { attester: "0xaaa2" } },
  ]);
  await store.db
    .insertInto("liquidity_requests")
    .values({
      id: "req-1",
      chain_id: 1,
      pool_address: M.a,
      asset_address: null,
      amount_usd: 50_000,
      horizon_days: 30,
      note: null,
      api_key_id: "key-1",
      created_at: MARKET_NOW - HOUR,
    })
    .execute();
}

/** Seeds the whole market fixture (see {@link M}). */
export async function seedMarket(store: Store): Promise<void> {
  await seedPools(store);
  await seedVolume(store);
  await seedCampaigns(store);
  await seedClaims(store);
  await appendActivity(
    store.db,
    Array.from({ length: 7 }, (_, i) => ({
      kind: i % 2 === 0 ? "ingest.pass" : "pool.stale",
      at: MARKET_NOW - (7 - i) * 60,
      pool: i % 2 === 0 ? null : { chainId: 8453, address: M.c },
      summary: `event ${i}`,
      data: { i },
    })),
  );
}
