import type { Kysely } from "kysely";
import { chunksOf, excludedOf } from "./batches";
import type { Database, DexVolume } from "./schema";

/** One protocol's DEX volume of one completed UTC day on one chain, as DefiLlama's overview gave it. */
export type DexVolumeRecord = {
  /** The chain's name as stored (`DEFILLAMA_CHAINS[chainId].name`). */
  chain: string;
  protocol: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  volumeUsd: number;
  /** When the feed was read, Unix seconds. */
  observedAt: number;
};

function toDexVolumeRow(record: DexVolumeRecord): DexVolume {
  const { chain, protocol, day } = record;
  return { chain, protocol, day, volume_usd: record.volumeUsd, observed_at: record.observedAt };
}

/**
 * Inserts or refreshes daily volumes keyed by (chain, protocol, day): a later observation of a day replaces it.
 * Multi-row upserts (chunked); a day listed twice is written as its last listing, as one upsert per row would.
 */
export async function upsertDexVolumes(db: Kysely<Database>, records: readonly DexVolumeRecord[]): Promise<void> {
  const rows = records.map(toDexVolumeRow);
  const last = new Map(rows.map((row) => [JSON.stringify([row.chain, row.protocol, row.day]), row]));
  for (const chunk of chunksOf([...last.values()], 5)) {
    await db
      .insertInto("dex_volumes")
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(["chain", "protocol", "day"]).doUpdateSet(excludedOf(["volume_usd", "observed_at"])),
      )
      .execute();
  }
}

/**
 * The dex-volumes feed summed per chain and protocol over the UTC days `[fromDay, toDay]` (inclusive), with how many
 * days each sum covers and when the feed last reported that chain and protocol (Unix seconds).
 */
export async function sumDexVolumes(
  db: Kysely<Database>,
  parameters: { fromDay: string; toDay: string },
): Promise<{ chain: string; protocol: string; volumeUsd: number; days: number; observedAt: number }[]> {
  const rows = await db
    .selectFrom("dex_volumes")
    .select((eb) => [
      "chain",
      "protocol",
      eb.fn.sum<number>("volume_usd").as("volume_usd"),
      eb.fn.countAll<number>().as("days"),
      eb.fn.max("observed_at").as("observed_at"),
    ])
    .where("day", ">=", parameters.fromDay)
    .where("day", "<=", parameters.toDay)
    .groupBy(["chain", "protocol"])
    .execute();
  return rows.map((row) => ({
    chain: row.chain,
    protocol: row.protocol,
    volumeUsd: Number(row.volume_usd),
    days: Number(row.days),
    observedAt: Number(row.observed_at),
  }));
}
