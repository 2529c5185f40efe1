import type { FastifyInstance } from "fastify";
import { keccak256, stringToHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createAttestationMessage } from "../../../src/lib/createAttestationMessage";
import { getAttestationTypedData } from "../../../src/lib/getAttestationTypedData";
import { signAttestation } from "../../../src/lib/signAttestation";
import { signTypedAttestation } from "../../../src/lib/signTypedAttestation";
import { loadConfig } from "../../../src/config/loadConfig";
import { createServer } from "../../../src/service/server";
import type { Store } from "../../../src/storage/openStore";
import type { NewPool } from "../../../src/storage/schema";
import { registerConfigApiKeys } from "../../../src/write/registerConfigApiKeys";
import { openTempStore } from "../storage/tempStore";

/** Re-exported: the many service tests that take their app fixtures from here take the store from here too. */
export { openTempStore, type TempStore } from "../storage/tempStore";

/** Hardhat's first dev key: a test-only attester. */
export const TEST_KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const TEST_ATTESTER = privateKeyToAccount(TEST_KEY).address;
export const TEST_REGISTRY = { chainId: 1, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" } as const;
/** The clock every test app runs on (Unix seconds). */
export const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
export const DAY = 86_400;

/** Builds the real app (same server options as production) over `store`, with a silent logger. */
export async function buildTestApp(
  store: Store,
  env: Record<string, string> = {},
  options: { registry?: { chainId: number; address: string } | null } = {},
): Promise<FastifyInstance> {
  const config = loadConfig({ env: { LOG_LEVEL: "silent", ...env } });
  return createServer({
    store,
    config,
    attester: { address: TEST_ATTESTER, registry: options.registry === undefined ? TEST_REGISTRY : options.registry },
    now: () => NOW,
  });
}

type PoolSeed = Pick<NewPool, "chain_id" | "address" | "kind" | "symbol" | "protocol"> & Partial<NewPool>;

export async function insertPool(store: Store, pool: PoolSeed): Promise<void> {
  await store.db
    .insertInto("pools")
    .values({ created_at: NOW - 30 * DAY, updated_at: NOW, ...pool, address: pool.address.toLowerCase() })
    .execute();
}

export async function insertDaily(
  store: Store,
  row: { chainId: number; address: string; day: string; minDepthUsd: number; minObservedAt: number },
): Promise<void> {
  await store.db
    .insertInto("pool_daily")
    .values({
      chain_id: row.chainId,
      address: row.address.toLowerCase(),
      day: row.day,
      min_depth_usd: row.minDepthUsd,
      min_observed_at: row.minObservedAt,
      min_block: null,
      last_observed_at: row.minObservedAt,
      samples: 1,
    })
    .execute();
}

/** Signs an attestation with the library (v1, plus the v2 block when `registry` is given) and stores it. */
export async function insertAttestation(
  store: Store,
  a: {
    chainId: number;
    address: string;
    issuedAt: number;
    expiry: number;
    horizonDays: number;
    confidenceHundredths: number;
    registry?: { chainId: number; address: string };
    key?: Hex;
  },
): Promise<void> {
  const privateKey = a.key ?? TEST_KEY;
  const fields = {
    chainId: a.chainId,
    confidence: a.confidenceHundredths / 100,
    expiry: a.expiry,
    horizon: a.horizonDays,
    issuedAt: a.issuedAt,
    pool: a.address,
  };
  const canonical = createAttestationMessage({ attestation: fields });
  const signature = await signAttestation({ attestation: fields, privateKey });
  let eip712: string | null = null;
  if (a.registry) {
    const typed = getAttestationTypedData({ attestation: fields, registry: a.registry });
    eip712 = JSON.stringify(
      {
        domain: { ...typed.domain, chainId: typed.domain.chainId.toString() },
        types: typed.types,
        primaryType: typed.primaryType,
        message: Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, String(v)])),
        signature: await signTypedAttestation({ attestation: fields, registry: a.registry, privateKey }),
      },
      null,
      0,
    );
  }
  await store.db
    .insertInto("attestations")
    .values({
      id: keccak256(stringToHex(canonical)),
      chain_id: a.chainId,
      address: a.address.toLowerCase(),
      issued_at: a.issuedAt,
      expiry: a.expiry,
      horizon_days: a.horizonDays,
      confidence_hundredths: a.confidenceHundredths,
      canonical,
      signature,
      attester: privateKeyToAccount(privateKey).address.toLowerCase(),
      floor: 0.5,
      depth_at_issuance_usd: 1_000_000,
      model: "horizon-v1",
      inputs_hash: keccak256(stringToHex(`${canonical}:inputs`)),
      outcome: "pending",
      eip712_json: eip712,
      created_at: a.issuedAt,
    })
    .execute();
}

/** Addresses used by the seeded fixture (mixed case on purpose where it matters). */
export const POOLS = {
  /** chain 1, AMM, fresh, two attestations (an older one and the latest, with a v2 block). */
  weth: "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc",
  /** chain 1, lending, fresh, no attestation yet. */
  ausdc: "0x98C23E9d8f34FEFb1B7BD6a91B7FF122F4e16F5c",
  /** on chains 42161 and 8453 (ambiguous bare address); 42161 has an expired attestation. */
  shared: "0x1111111111111111111111111111111111111111",
  /** chain 8453, stale (observed two hours ago), no attestation. */
  stale: "0x2222222222222222222222222222222222222222",
  /** chain 1, never observed. */
  unseen: "0x3333333333333333333333333333333333333333",
} as const;

/** Seeds the five pools above, their daily history and their attestations. */
export async function seed(store: Store): Promise<void> {
  const amm = { kind: "amm" as const, protocol: "uniswap-v2" };
  await insertPool(store, {
    chain_id: 1,
    address: POOLS.weth,
    symbol: "WETH-USDC",
    ...amm,
    depth_usd: 1_000_000,
    depth_observed_at: NOW - 60,
  });
  await insertPool(store, {
    chain_id: 1,
    address: POOLS.ausdc,
    symbol: "aUSDC",
    kind: "lending",
    protocol: "aave-v3",
    depth_usd: 250_000,
    depth_observed_at: NOW - 120,
    supply_rate_percent: 3.2,
  });
  await insertPool(store, {
    chain_id: 42161,
    address: POOLS.shared,
    symbol: "ARB-USDC",
    ...amm,
    depth_usd: 40_000,
    depth_observed_at: NOW - 30,
  });
  await insertPool(store, {
    chain_id: 8453,
    address: POOLS.shared,
    symbol: "CB-USDC",
    ...amm,
    depth_usd: 10_000,
    depth_observed_at: NOW - 30,
  });
  await insertPool(store, {
    chain_id: 8453,
    address: POOLS.stale,
    symbol: "OLD-USDC",
    ...amm,
    depth_usd: 777_000,
    depth_observed_at: NOW - 7200,
  });
  await insertPool(store, { chain_id: 1, address: POOLS.unseen, symbol: "NEW-USDC", ...amm });

  // weth: an older attestation, then the latest one (issued two days ago, horizon 30 days, with v2).
  await insertAttestation(store, {
    chainId: 1,
    address: POOLS.weth,
    issuedAt: NOW - 10 * DAY,
    expiry: NOW - 9 * DAY,
    horizonDays: 14,
    confidenceHundredths: 80,
  });
  await insertAttestation(store, {
    chainId: 1,
    address: POOLS.weth,
    issuedAt: NOW - 2 * DAY,
    expiry: NOW + DAY,
    horizonDays: 30,
    confidenceHundredths: 85,
    registry: TEST_REGISTRY,
  });
  // Daily lows: one before the latest window (must not count), two inside it.
  await insertDaily(store, {
    chainId: 1,
    address: POOLS.weth,
    day: "2025-12-28",
    minDepthUsd: 100_000,
    minObservedAt: NOW - 4 * DAY,
  });
  await insertDaily(store, {
    chainId: 1,
    address: POOLS.weth,
    day: "2025-12-30",
    minDepthUsd: 900_000,
    minObservedAt: NOW - 2 * DAY + 3600,
  });
  await insertDaily(store, {
    chainId: 1,
    address: POOLS.weth,
    day: "2025-12-31",
    minDepthUsd: 950_000,
    minObservedAt: NOW - DAY + 60,
  });
  // shared on 42161: expired but authentic.
  await insertAttestation(store, {
    chainId: 42161,
    address: POOLS.shared,
    issuedAt: NOW - 3 * DAY,
    expiry: NOW - DAY,
    horizonDays: 7,
    confidenceHundredths: 100,
  });
}

/**
 * {@link openTempStore}, {@link seed}ed, with `apiKeys` registered as `API_KEYS` would (labelled `API_KEYS #1`, ...).
 */
export async function openKeyedStore(apiKeys: string[]): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  const { store, cleanup } = await openTempStore();
  await seed(store);
  await registerConfigApiKeys(
    { db: store.db, now: () => NOW },
    { keys: apiKeys.map((key, i) => ({ key, label: `API_KEYS #${i + 1}` })) },
  );
  return { store, cleanup };
}

/** A seeded app for one suite: the store and app exist from the suite's `before` hook until its `after` hook. */
export type SeededApp = {
  store: Store;
  app: FastifyInstance;
  get: (url: string) => ReturnType<FastifyInstance["inject"]>;
  postJson: (url: string, payload: string, contentType?: string) => ReturnType<FastifyInstance["inject"]>;
};

/**
 * Registers `before`/`after` hooks that open a temp SQLite store, {@link seed} it and build the real app over it
 * (with `env`), then close both. Call it inside a `describe`.
 */
export function useSeededApp(env: Record<string, string> = {}): SeededApp {
  let cleanup: () => Promise<void> = async () => undefined;
  const handle = {
    get: (url: string) => handle.app.inject({ method: "GET", url }),
    postJson: (url: string, payload: string, contentType = "application/json") =>
      handle.app.inject({ method: "POST", url, payload, headers: { "content-type": contentType } }),
  } as SeededApp;
  before(async function () {
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    handle.store = temp.store;
    await seed(temp.store);
    handle.app = await buildTestApp(temp.store, env);
  });
  after(async function () {
    await handle.app?.close();
    await cleanup();
  });
  return handle;
}
