import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { closed, nullable } from "./market";

/** `GET /api/v1/activity` query. */
export const ActivityQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" })),
  kind: Type.Optional(
    Type.String({ maxLength: 1000, description: "only these kinds, comma-separated (e.g. pool.stale,pool.fresh)" }),
  ),
});

/** `GET /api/v1/activity`. */
export const ActivityResponseSchema = closed(
  {
    events: Type.Array(
      closed({
        id: uint("grows with every event"),
        kind: Type.String(),
        at: uint("Unix seconds"),
        poolId: nullable(Type.String(), "eip155:<chainId>:<address>, or null"),
        summary: Type.String(),
        data: Type.Record(Type.String(), Type.Unknown()),
      }),
      { description: "newest first" },
    ),
    next: nullable(Type.String(), "cursor of the next (older) page; null at the oldest event"),
  },
  { title: "Activity" },
);
