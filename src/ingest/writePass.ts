import type { Kysely } from "kysely";
import type { PoolConfig } from "../model/poolConfig";
import { upsertCampaigns } from "../storage/campaigns";
import { upsertDexVolumes } from "../storage/dexVolumes";
import { backfillDailyDepth, recordDailyDepth, utcDay } from "../storage/poolDaily";
import { upsertPool } from "../storage/pools";
import type { Database, DexVolume } from "../storage/schema";
import type { DefillamaChartPoint, DefillamaPool } from "./feeds/defillamaYields";
import type { MerklOpportunity } from "./feeds/merkl";
import { poolKey } from "./poolKey";
import { campaignRows } from "./rows/campaignRows";
import { dailyLowestPoints } from "./rows/dailyLowest";
import { poolValues, type OnchainReading } from "./rows/poolValues";

/** What the read phase of a pass gathered from its sources (empty or null where a source gave nothing). */
export interface PassData {
  /** On-chain readings by {@link poolKey}. */
  onchain: ReadonlyMap<string, OnchainReading>;
  /** DefiLlama yields pools by uuid; null when not read. */
  llamaPools: ReadonlyMap<string, DefillamaPool> | null;
  /** DefiLlama `/chart` points by {@link poolKey}, for pools with a short history. */
  charts: ReadonlyMap<string, DefillamaChartPoint[]>;
  dexVolumes: readonly DexVolume[];
  /** Merkl opportunities; null when not read. */
  opportunities: readonly MerklOpportunity[] | null;
}

/** Parameters of {@link writePass}. */
export interface WritePassParameters {
  pools: readonly PoolConfig[];
  data: PassData;
  /** When the feeds were read, Unix seconds: the observed time of feed values, and what "today" is for backfill. */
  feedsObservedAt: number;
}

/**
 * The write phase of a pass, in ONE transaction so that a crash leaves the store as the previous pass left it: per
 * tracked pool the columns it has values for, the daily lowest depth of an on-chain reading, and backfilled chart
 * days (completed days only, never over an existing row); then Merkl campaigns and dex volumes.
 *
 * @param db the store's Kysely instance.
 */
export async function writePass(db: Kysely<Database>, parameters: WritePassParameters): Promise<void> {
  const { pools, data, feedsObservedAt } = parameters;
  await db.transaction().execute(async (trx) => {
    for (const config of pools) await writePool(trx, config, data, feedsObservedAt);
    if (data.opportunities) {
      await upsertCampaigns(trx, campaignRows({ opportunities: data.opportunities, observedAt: feedsObservedAt }));
    }
    if (data.dexVolumes.length > 0) await upsertDexVolumes(trx, [...data.dexVolumes]);
  });
}

/** One pool's row, its day's lowest depth and its backfilled days. */
async function writePool(
  trx: Kysely<Database>,
  config: PoolConfig,
  data: PassData,
  feedsObservedAt: number,
): Promise<void> {
  const { chainId, address } = config;
  const key = poolKey(chainId, address);
  const reading = data.onchain.get(key);
  const llama = config.defillamaId ? data.llamaPools?.get(config.defillamaId) : undefined;
  const values = poolValues({ config, reading, llama, feedsObservedAt });
  const { kind, symbol, protocol } = config;
  await upsertPool(trx, { chainId, address, kind, symbol, protocol, values, now: feedsObservedAt });
  if (reading && values.depth_usd !== undefined) {
    await recordDailyDepth(trx, {
      chainId,
      address,
      depthUsd: values.depth_usd as number,
      observedAt: reading.observedAt,
      block: reading.block,
    });
  }
  const chart = data.charts.get(key);
  if (chart) {
    const points = dailyLowestPoints({ chart, today: utcDay(feedsObservedAt) });
    await backfillDailyDepth(trx, { chainId, address, points });
  }
}
