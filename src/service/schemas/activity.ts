import { Type } from "@sinclair/typebox";
import { ACTIVITY_KINDS } from "../../model/activityKinds";
import { ACTIVITY_PARAMETERS } from "../../read/getActivity";
import { ActivitySchema } from "../../read/schemas/activity";
import { fromZod } from "./fromZod";

/** `GET /api/v1/activity` query. */
export const ActivityQuerySchema = Type.Object({
  limit: Type.Integer(ACTIVITY_PARAMETERS.limit),
  cursor: Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" })),
  kind: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: `only these kinds, comma-separated (e.g. pool.stale,pool.fresh), each one of: ${ACTIVITY_KINDS.join(", ")}. An unknown kind is 400 INVALID_PARAMETER, naming it.`,
    }),
  ),
});

/** `GET /api/v1/activity` answer: its one declaration, `src/read/schemas/activity.ts`, as JSON Schema. */
export const ActivityResponseSchema = fromZod(ActivitySchema, { title: "Activity" });
