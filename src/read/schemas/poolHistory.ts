import * as z from "zod/v4";
import { nullable, poolId, uint, utcDate } from "./common";

const PoolHistoryDaySchema = z.strictObject({
  date: utcDate(),
  lowestDepthUsd: nullable(z.number(), "USD: the day's lowest stored depth; null: nothing stored for the day"),
  source: z
    .enum(["observed", "feed-daily"])
    .describe(
      "observed: the service's own on-chain reading (also a day with nothing stored); feed-daily: backfilled from DefiLlama's daily /chart where nothing was observed",
    ),
  depthUsd: nullable(
    z.number(),
    "USD: the depth the first attestation issued that UTC day states (its floor is floor × this; the model evaluation anchors that day's claim on it); null: none issued that day",
  ),
  volumeUsd: nullable(
    z.number(),
    "USD: the day's swap volume from the pool's own Swap logs; null: none stored for the day (a lending reserve, or a day not read), never zero",
  ),
});

const PoolHistoryAttestationSchema = z.strictObject({
  issuedAt: uint("Unix seconds"),
  horizon: uint("days"),
  confidence: z.number().min(0).max(1).describe("with two fraction digits"),
  floorUsd: z.number().describe("USD the claim says the depth stays at or above: floor × depth at issuance"),
  settlesAt: uint("Unix seconds: issuedAt + horizon days, when the claim's window closes"),
});

/** `get_pool_history` (`GET /api/v1/pool/{pool}/history`): daily lows, with the issued claims over them. */
export const PoolHistorySchema = z.strictObject({
  pool: poolId(),
  days: z
    .array(PoolHistoryDaySchema)
    .describe("every complete UTC day of the range, oldest first, ending yesterday (days of them)"),
  attestations: z
    .array(PoolHistoryAttestationSchema)
    .describe(
      "issued attestations whose window [issuedAt, settlesAt] reaches into the range or beyond (the current one included), oldest first",
    ),
});
