import type { Kysely } from "kysely";
import { formatPoolId } from "@attestation-registry/sdk";
import type { CalibrationPool } from "../model/pooledCalibration";
import { listObservedLows } from "../storage/modelEvaluations";
import type { Database } from "../storage/schema";

/**
 * Every pool's observed daily lows up to `lastDay` (read on chain: `pool_daily.min_block` set; a day backfilled from a
 * feed's daily chart is not an observed low), in one query, each pool's days oldest first. The pooled calibration
 * that issuance reads and the walk-forward evaluation both start from it.
 */
export async function readObservedPools(
  db: Kysely<Database>,
  parameters: { lastDay: string },
): Promise<(CalibrationPool & { daily: { day: string; minDepthUsd: number }[] })[]> {
  const pools = new Map<string, CalibrationPool & { daily: { day: string; minDepthUsd: number }[] }>();
  for (const low of await listObservedLows(db, parameters)) {
    const pool = formatPoolId({ chainId: low.chainId, address: low.address });
    let entry = pools.get(pool);
    if (entry === undefined) pools.set(pool, (entry = { pool, daily: [] }));
    entry.daily.push({ day: low.day, minDepthUsd: low.minDepthUsd });
  }
  return [...pools.values()];
}
