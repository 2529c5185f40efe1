import * as z from "zod/v4";
import { nullable, poolId, uint, utcDate } from "./common";

const swapLogs = z.literal("swap-logs").describe("the pools' own Swap logs, read on chain");
const dexFeed = z.literal("defillama-dexs").describe("DefiLlama's dex-volumes feed");

const VolumeDaySchema = z.strictObject({
  date: utcDate(),
  volumeUsd: nullable(z.number(), "USD summed over the counted pools' rows of the day; null: no data (not zero)"),
  pools: z.int().min(0).describe("counted pools with a row that day"),
  complete: z.boolean().describe("every counted pool has a row read past the day's end; today never is"),
});

/** `get_volume` (`GET /api/v1/volume`). */
export const VolumeSchema = z.strictObject({
  asOf: uint("Unix seconds"),
  freshnessWindowS: uint("seconds"),
  window: z.strictObject({ from: utcDate(), to: utcDate(), days: z.int().min(1).max(365) }),
  days: z.array(VolumeDaySchema).describe("the window's complete UTC days, oldest first"),
  today: VolumeDaySchema.describe("today's partial day so far: never summed"),
  heatmap: z.strictObject({
    venues: z.array(z.string()),
    dates: z.array(utcDate()),
    cells: z.array(z.array(z.number().nullable())).describe("USD per venue, per date; null: no data"),
    source: swapLogs,
  }),
  byChain: z
    .array(
      z.strictObject({
        chainId: uint("chain id"),
        volumeUsd: z.number().nullable(),
        pools: uint("counted pools"),
        source: swapLogs,
      }),
    )
    .describe("USD over the window, by chain id"),
  byVenue: z
    .array(
      z.strictObject({
        venue: z.string(),
        volumeUsd: z.number().nullable(),
        pools: uint("counted pools"),
        source: swapLogs,
      }),
    )
    .describe("USD over the window, by venue name"),
  byTurnover: z
    .array(
      z.strictObject({
        id: poolId(),
        chainId: uint("chain id"),
        venue: z.string(),
        volume24hUsd: z.number(),
        depthUsd: z.number(),
        turnover: z.number().describe("volume24hUsd / depthUsd"),
        source: swapLogs,
      }),
    )
    .describe("fresh pools only, by turnover (highest first, then id); at most turnoverLimit"),
  byTurnoverTotal: uint("pools with a fresh turnover; byTurnover lists the first turnoverLimit of them"),
  feed: z.strictObject({
    byChain: z.array(
      z.strictObject({
        chain: z.string(),
        volumeUsd: z.number(),
        days: uint("days the feed reported"),
        source: dexFeed,
      }),
    ),
    byVenue: z.array(
      z.strictObject({
        chain: z.string(),
        venue: z.string().describe("the protocol as the feed names it"),
        volumeUsd: z.number(),
        days: uint("days the feed reported"),
        source: dexFeed,
      }),
    ),
  }),
  pools: z.strictObject({
    counted: uint("AMM pools with fresh volume"),
    heldOut: uint("AMM pools with stale volume"),
  }),
  stale: z.array(
    z.strictObject({
      id: z.string(),
      field: z.enum(["volume24hUsd", "depthUsd", "volumeUsd"]),
      value: z.number().nullable(),
      observedAt: uint("Unix seconds").nullable(),
      windowVolumeUsd: nullable(z.number(), "the window's on-chain volume held out with the pool").optional(),
      source: z.union([swapLogs, dexFeed]),
    }),
  ),
});
