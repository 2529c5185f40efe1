import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { closed, nullable } from "./market";

/** `GET /api/v1/roadmap`. */
export const RoadmapResponseSchema = closed(
  {
    version: uint("the data file's version"),
    items: Type.Array(
      closed({
        id: Type.String(),
        title: Type.String(),
        status: Type.Union([Type.Literal("shipped"), Type.Literal("building"), Type.Literal("planned")]),
        counts: Type.Record(Type.String(), nullable(uint("count")), {
          description: "computed from the store at request time; null when the store cannot tell (not zero)",
        }),
      }),
    ),
  },
  { title: "Roadmap" },
);
