import { Type } from "@sinclair/typebox";
import { VOLUME_PARAMETERS } from "../../read/getVolume";
import { VolumeSchema } from "../../read/schemas/volume";
import { fromZod } from "./fromZod";

/** `GET /api/v1/volume?days=N` query. */
export const VolumeQuerySchema = Type.Object({
  days: Type.Integer(VOLUME_PARAMETERS.days),
  turnoverLimit: Type.Integer(VOLUME_PARAMETERS.turnoverLimit),
});

/** `GET /api/v1/volume` answer: its one declaration, `src/read/schemas/volume.ts`, as JSON Schema. */
export const VolumeResponseSchema = fromZod(VolumeSchema, { title: "Volume" });
