import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { closed, nullable, poolId, utcDate } from "./market";

const swapLogs = Type.Literal("swap-logs", { description: "the pools' own Swap logs, read on chain" });
const dexFeed = Type.Literal("defillama-dexs", { description: "DefiLlama's dex-volumes feed" });

const VolumeDaySchema = closed({
  date: utcDate(),
  volumeUsd: nullable(Type.Number(), "sum over the counted pools' rows of the day; null: no data (not zero)"),
  pools: Type.Integer({ minimum: 0, description: "counted pools with a row that day" }),
  complete: Type.Boolean({ description: "every counted pool has a row read past the day's end; today never is" }),
});

/** `GET /api/v1/volume?days=N` query. */
export const VolumeQuerySchema = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: "complete UTC days, ending yesterday" }),
  turnoverLimit: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description: "how many pools byTurnover lists (highest turnover first); byTurnoverTotal says of how many",
  }),
});

/** `GET /api/v1/volume`. */
export const VolumeResponseSchema = closed(
  {
    asOf: uint("Unix seconds"),
    freshnessWindowS: uint("seconds"),
    window: closed({ from: utcDate(), to: utcDate(), days: Type.Integer({ minimum: 1, maximum: 365 }) }),
    days: Type.Array(VolumeDaySchema, { description: "the window's days, oldest first" }),
    today: closed(VolumeDaySchema.properties, { description: "today's partial day so far: never summed" }),
    heatmap: closed({
      venues: Type.Array(Type.String()),
      dates: Type.Array(utcDate()),
      cells: Type.Array(Type.Array(nullable(Type.Number())), { description: "per venue, per date; null: no data" }),
      source: swapLogs,
    }),
    byChain: Type.Array(
      closed({
        chainId: uint("chain id"),
        volumeUsd: nullable(Type.Number()),
        pools: uint("counted pools"),
        source: swapLogs,
      }),
      { description: "by chain id" },
    ),
    byVenue: Type.Array(
      closed({
        venue: Type.String(),
        volumeUsd: nullable(Type.Number()),
        pools: uint("counted pools"),
        source: swapLogs,
      }),
      { description: "by venue name" },
    ),
    byTurnover: Type.Array(
      closed({
        id: poolId(),
        chainId: uint("chain id"),
        venue: Type.String(),
        volume24hUsd: Type.Number(),
        depthUsd: Type.Number(),
        turnover: Type.Number({ description: "volume24hUsd / depthUsd" }),
        source: swapLogs,
      }),
      { description: "fresh pools only, by turnover (highest first, then id)" },
    ),
    byTurnoverTotal: uint("pools with a fresh turnover; byTurnover lists the first turnoverLimit of them"),
    feed: closed({
      byChain: Type.Array(
        closed({
          chain: Type.String(),
          volumeUsd: Type.Number(),
          days: uint("days the feed reported"),
          source: dexFeed,
        }),
      ),
      byVenue: Type.Array(
        closed({
          chain: Type.String(),
          venue: Type.String({ description: "the protocol as the feed names it" }),
          volumeUsd: Type.Number(),
          days: uint("days the feed reported"),
          source: dexFeed,
        }),
      ),
    }),
    pools: closed({ counted: uint("AMM pools with fresh volume"), heldOut: uint("AMM pools with stale volume") }),
    stale: Type.Array(
      closed({
        id: Type.String(),
        field: Type.String(),
        value: nullable(Type.Number()),
        observedAt: nullable(uint("Unix seconds")),
        windowVolumeUsd: Type.Optional(nullable(Type.Number(), "the window's on-chain volume held out with the pool")),
        source: Type.Union([swapLogs, dexFeed]),
      }),
    ),
  },
  { title: "Volume" },
);
