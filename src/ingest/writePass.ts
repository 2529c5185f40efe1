import type { Kysely } from "kysely";
import { isStale } from "../model/freshness";
import type { PoolConfig } from "../model/poolConfig";
import { appendActivity, listActivityByKindPrefix, removeActivity, type NewActivity } from "../storage/activity";
import { listUnannouncedCampaigns, recordCampaignAnnouncements } from "../storage/campaignAnnouncements";
import { campaignKeyOf, campaignKeyText, upsertCampaigns } from "../storage/campaigns";
import { upsertDexVolumes, type DexVolumeRecord } from "../storage/dexVolumes";
import { advanceLogCursor } from "../storage/logCursors";
import {
  backfillDailyDepths,
  recordDailyDepths,
  utcDay,
  type BackfillDailyDepthParameters,
  type RecordDailyDepthParameters,
} from "../storage/poolDaily";
import { getPools, upsertPools, type UpsertPoolParameters } from "../storage/pools";
import { assertFence, type PassFence } from "../storage/leaderLease";
import type { Database } from "../storage/schema";
import { upsertTokenPrices, type TokenPriceRecord } from "../storage/tokenPrices";
import type { DefillamaChartPoint, DefillamaPool } from "./feeds/defillamaYields";
import type { MerklOpportunity } from "./feeds/merkl";
import { poolKey } from "./poolKey";
import { campaignEvent, campaignPool, poolFreshnessEvent, registryEvent } from "./rows/activityEvents";
import { campaignRows } from "./rows/campaignRows";
import { dailyFeedPoints } from "./rows/dailyFeedPoints";
import { poolValues, type OnchainReading } from "./rows/poolValues";
import { REGISTRY_SOURCE, type RegistryRead } from "./steps/registryLogs";
import type { SwapRead } from "./steps/swapLogs";
import { writeSwapVolume, type PoolVolume24h } from "./writeVolume";

/** What the read phase of a pass gathered from its sources (empty or null where a source gave nothing). */
export interface PassData {
  /** On-chain readings by {@link poolKey}, valued with the pass's prices. */
  onchain: ReadonlyMap<string, OnchainReading>;
  /** DefiLlama yields pools by uuid; null when not read. */
  llamaPools: ReadonlyMap<string, DefillamaPool> | null;
  /** DefiLlama `/chart` points by {@link poolKey}, for pools with a short history. */
  charts: ReadonlyMap<string, DefillamaChartPoint[]>;
  dexVolumes: readonly DexVolumeRecord[];
  /** Merkl opportunities; null when not read. */
  opportunities: readonly MerklOpportunity[] | null;
  /** The `Swap` logs read per chain (chains whose read ran). */
  swaps: readonly SwapRead[];
  /** The registry's events read, or null. */
  registry: RegistryRead | null;
  /** Coin prices from this pass's answer, to cache. */
  tokenPrices: readonly TokenPriceRecord[];
  /**
   * Keys ({@link poolKey}) of on-chain readings taken at a block older than the pool's stored depth block: not stored
   * (their prices still value this pass's swaps).
   */
  olderReadings?: ReadonlySet<string>;
}

/** Parameters of {@link writePass}. */
export interface WritePassParameters {
  pools: readonly PoolConfig[];
  data: PassData;
  /**
   * The pass's time, Unix seconds: the observed time of feed values, "today" for backfill, and the time at which
   * each pool's depth freshness is judged (pool.stale / pool.fresh).
   */
  feedsObservedAt: number;
  /** `FRESHNESS_WINDOW_S`. */
  freshnessWindowS: number;
}

/**
 * The write phase of a pass, in ONE transaction so that a crash leaves the store as the previous pass left it:
 * the swap volume and its cursors (`writeSwapVolume`); per tracked pool the columns it has values for, its depth
 * freshness state with a `pool.stale` / `pool.fresh` event when it changed, the daily lowest depth and backfilled
 * chart days; Merkl campaigns with a `campaign.started` / `campaign.ended` event once each when due; dex volumes; the
 * registry's events with their cursor; and the coin prices.
 *
 * Its cost in statements is bounded by the number of chains and of statement chunks, not of pools: the tracked pools'
 * rows are read in one query per chain, and each kind of row is written in multi-row statements (see
 * `src/storage/batches.ts`).
 *
 * @param db the store's Kysely instance.
 * @param fence checked first in the transaction (`assertFence`): a lost lease or a stop commits nothing.
 * @throws RangeError when `pools` lists a pool twice.
 */
export async function writePass(
  db: Kysely<Database>,
  parameters: WritePassParameters,
  fence?: PassFence,
): Promise<void> {
  const { pools, data, feedsObservedAt: now, freshnessWindowS } = parameters;
  await db.transaction().execute(async (trx) => {
    await assertFence(trx, fence);
    const volumes = new Map<string, PoolVolume24h>();
    for (const read of data.swaps) {
      for (const [key, volume] of await writeSwapVolume(trx, { read, onchain: data.onchain, now })) {
        volumes.set(key, volume);
      }
    }
    await writePools(trx, { pools, data, now, freshnessWindowS, volumes });
    if (data.opportunities) {
      await upsertCampaigns(trx, campaignRows({ opportunities: data.opportunities, observedAt: now }));
    }
    await announceCampaigns(trx, { pools, now });
    if (data.dexVolumes.length > 0) await upsertDexVolumes(trx, data.dexVolumes);
    if (data.registry) await writeRegistryEvents(trx, data.registry, now);
    if (data.tokenPrices.length > 0) await upsertTokenPrices(trx, data.tokenPrices);
  });
}

/**
 * Every tracked pool's row with its freshness transition, its day's lowest depth and its backfilled days: the rows
 * read in one batch, then written in batches (pool rows, freshness events in pool order, daily lows, backfill).
 */
async function writePools(
  trx: Kysely<Database>,
  parameters: {
    pools: readonly PoolConfig[];
    data: PassData;
    now: number;
    freshnessWindowS: number;
    volumes: ReadonlyMap<string, PoolVolume24h>;
  },
): Promise<void> {
  const { pools, data, now, freshnessWindowS, volumes } = parameters;
  const keys = new Set<string>();
  for (const { chainId, address } of pools) {
    const key = poolKey(chainId, address);
    if (keys.has(key)) throw new RangeError(`writePass: pool ${key} is listed twice`);
    keys.add(key);
  }
  const existing = await getPools(trx, pools);
  const rows: UpsertPoolParameters[] = [];
  const events: NewActivity[] = [];
  const lows: RecordDailyDepthParameters[] = [];
  const backfills: BackfillDailyDepthParameters[] = [];
  pools.forEach((config, i) => {
    const { chainId, address, kind, symbol, protocol } = config;
    const key = poolKey(chainId, address);
    const reading = currentReading(data, key, existing[i]?.depthBlock ?? null);
    const llama = config.defillamaId ? data.llamaPools?.get(config.defillamaId) : undefined;
    const values = poolValues({ config, reading, llama, feedsObservedAt: now, volume: volumes.get(key) });
    const depthObservedAt = values.depth_observed_at ?? existing[i]?.depthObservedAt ?? null;
    const state = isStale({ observedAt: depthObservedAt, now, windowS: freshnessWindowS }) ? "stale" : "fresh";
    values.freshness_state = state;
    rows.push({ chainId, address, kind, symbol, protocol, values, now });
    // A pool never observed starts stale without an event; every later change of state is one event.
    if (state !== (existing[i]?.freshnessState ?? "stale")) {
      events.push(poolFreshnessEvent({ config, state, depthObservedAt, now, freshnessWindowS }));
    }
    // The daily low takes depths valued with prices that were fresh at the block (always, with on-chain prices).
    const valuedAt = reading?.valuedAt ?? reading?.observedAt;
    if (
      reading &&
      values.depth_usd !== undefined &&
      !isStale({ observedAt: valuedAt, now: reading.observedAt, windowS: freshnessWindowS })
    ) {
      const depthUsd = values.depth_usd as number;
      lows.push({ chainId, address, depthUsd, observedAt: reading.observedAt, block: reading.block });
    }
    const chart = data.charts.get(key);
    if (chart) backfills.push({ chainId, address, points: dailyFeedPoints({ chart, today: utcDay(now) }) });
  });
  await upsertPools(trx, rows);
  if (events.length > 0) await appendActivity(trx, events);
  await recordDailyDepths(trx, lows);
  await backfillDailyDepths(trx, backfills);
}

/**
 * A pool's on-chain reading of this pass, unless it was taken at a block older than the pool's stored depth block (a
 * node behind): a depth never moves back to an older block, and such a reading is no reorganisation.
 */
function currentReading(data: PassData, key: string, storedBlock: string | null): OnchainReading | undefined {
  const reading = data.onchain.get(key);
  if (!reading || data.olderReadings?.has(key)) return undefined;
  if (storedBlock !== null && BigInt(reading.block) < BigInt(storedBlock)) return undefined;
  return reading;
}

/**
 * `campaign.started` / `campaign.ended` once per campaign (distribution chain, id), for every start or end at or before
 * `now`.
 */
async function announceCampaigns(
  trx: Kysely<Database>,
  parameters: { pools: readonly PoolConfig[]; now: number },
): Promise<void> {
  const { pools, now } = parameters;
  for (const kind of ["campaign.started", "campaign.ended"] as const) {
    const due = await listUnannouncedCampaigns(trx, { kind, now });
    if (due.length === 0) continue;
    const keys = due.map(campaignKeyOf);
    const recorded = new Set(
      (await recordCampaignAnnouncements(trx, { campaigns: keys, kind, at: now })).map(campaignKeyText),
    );
    const events = due
      .filter((campaign) => recorded.has(campaignKeyText(campaignKeyOf(campaign))))
      .map((campaign) => campaignEvent({ campaign, kind, pool: campaignPool(campaign, pools), now }));
    if (events.length > 0) await appendActivity(trx, events);
  }
}

/**
 * The registry's cursor past the last block read, with that block's hash, and, when it moved (no other pass wrote the
 * range), its events (`registry.<EventName>`) in chain order. After a reorganisation (`read.replacing`) the cursor
 * moves from its stored, orphaned position, and the read's events replace the stored ones of its blocks
 * ({@link replaceRegistryEvents}).
 */
async function writeRegistryEvents(trx: Kysely<Database>, read: RegistryRead, now: number): Promise<void> {
  const { chainId, address } = read;
  const moved = await advanceLogCursor(trx, {
    source: REGISTRY_SOURCE,
    chainId,
    from: read.replacing?.storedNextBlock ?? (read.fromStored ? read.from.nextBlock : null),
    to: { address, nextBlock: read.readTo + 1n, lastBlockTime: read.readToTime, blockHash: read.readToHash },
    now,
  });
  if (!moved) return;
  const events = read.events.map((event) => registryEvent({ chainId, registry: address, ...event }));
  await appendActivity(trx, read.replacing ? await replaceRegistryEvents(trx, read, events) : events);
}

/**
 * A registry read again after a reorganisation: of the stored events of this registry in blocks from the
 * restart on, those the canonical read also has (same kind, time and data: block, log index, transaction, arguments)
 * are kept with their ids; the others, from orphaned blocks, are removed with their unsent deliveries
 * (`removeActivity`). Returns the canonical events not stored yet, to append.
 */
async function replaceRegistryEvents(
  trx: Kysely<Database>,
  read: RegistryRead,
  events: readonly NewActivity[],
): Promise<NewActivity[]> {
  const identity = (kind: string, at: number, dataJson: string) => `${kind} ${at} ${dataJson}`;
  const canonical = new Set(events.map((event) => identity(event.kind, event.at, JSON.stringify(event.data))));
  const stored = await listActivityByKindPrefix(trx, "registry.", { atLeast: read.replacing!.fromTime });
  const kept = new Set<string>();
  const removed: number[] = [];
  for (const { id, kind, at, data } of stored) {
    if (data.chainId !== read.chainId || data.registry !== read.address) continue;
    if (typeof data.blockNumber !== "string" || BigInt(data.blockNumber) < read.from.nextBlock) continue;
    // The stored text was JSON.stringify's, so parsing and stringifying again gives the same text back.
    const key = identity(kind, at, JSON.stringify(data));
    if (canonical.has(key) && !kept.has(key)) kept.add(key);
    else removed.push(id);
  }
  await removeActivity(trx, removed);
  return events.filter((event) => !kept.has(identity(event.kind, event.at, JSON.stringify(event.data))));
}
