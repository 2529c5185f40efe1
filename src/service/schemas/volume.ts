import { Type } from "@sinclair/typebox";
import { VolumeSchema } from "../../read/schemas/volume";
import { fromZod } from "./fromZod";

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

/** `GET /api/v1/volume` answer: its one declaration, `src/read/schemas/volume.ts`, as JSON Schema. */
export const VolumeResponseSchema = fromZod(VolumeSchema, { title: "Volume" });
