import { Type } from "@sinclair/typebox";
import { uint } from "./common";
import { closed, nullable } from "./market";

/** `GET /api/v1/launch`: carries no date or time at all. */
export const LaunchResponseSchema = closed(
  {
    market: closed({
      id: Type.String(),
      title: Type.String(),
      protocol: Type.String(),
      kind: Type.Union([Type.Literal("amm"), Type.Literal("lending")]),
    }),
    gates: Type.Array(
      closed({
        id: Type.String(),
        title: Type.String(),
        status: Type.Union([Type.Literal("clear"), Type.Literal("not-clear"), Type.Literal("unmeasured")]),
        measured: nullable(Type.Number(), "null when unmeasured (the reason is in detail)"),
        threshold: nullable(Type.Number()),
        unit: Type.String(),
        comparison: Type.Union([Type.Literal("atLeast"), Type.Literal("atMost")]),
        after: Type.Array(Type.String(), { description: "gates this one is checked after" }),
        detail: Type.String(),
      }),
      { description: "in dependency order" },
    ),
    holding: nullable(Type.String(), "the first gate that is not clear; null when all are clear"),
    version: uint("the gates file's version"),
  },
  { title: "LaunchPosition" },
);
