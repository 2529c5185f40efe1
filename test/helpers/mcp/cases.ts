import type { TSchema } from "@sinclair/typebox";
import { declaredSurface, type SurfaceParameter } from "../../../src/read/defineSurface";
import { READ_SURFACES } from "../../../src/read/surfaces";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import { AttesterResponseSchema } from "../../../src/service/schemas/attester";
import { VerifyResponseSchema } from "../../../src/service/schemas/verify";
import type { ToolName } from "../../../src/read/surfaces";
import { IDS, M } from "../read/seedMarket";
import { POOLS } from "../service/app";

/** The tools, in the order `tools/list` gives them: the read surface table's (src/read/surfaces.ts). */
export { TOOL_NAMES, type ToolName } from "../../../src/read/surfaces";

/** The table's surfaces declared by their readers (src/read/defineSurface.ts): their route and tool are derived. */
const DECLARED = READ_SURFACES.flatMap((entry) => {
  const surface = entry.tool === null ? null : declaredSurface(entry);
  return surface === null ? [] : [{ tool: entry.tool as ToolName, url: entry.route.path, surface }];
});

/** Each tool's REST route response schema (TypeBox): the tool's output schema must describe the same object. */
export const REST_SCHEMAS: Record<ToolName, TSchema> = {
  // A declared surface's route answers its declaration's shape.
  ...(Object.fromEntries(DECLARED.map(({ tool, surface }) => [tool, declaredResponseSchema(surface)])) as Record<
    ToolName,
    TSchema
  >),
  verify_attestation: VerifyResponseSchema,
  get_attester: AttesterResponseSchema,
};

/** The service fixture's pool with a v2 block (chain 1). */
export const WETH = `eip155:1:${POOLS.weth.toLowerCase()}`;

/** The least arguments a tool takes: a declared tool's required parameters, with the fixture's pool {@link WETH}. */
export function requiredArgs(tool: ToolName): Record<string, unknown> {
  const declared = DECLARED.find((entry) => entry.tool === tool);
  const parameters = Object.entries((declared?.surface.parameters ?? {}) as Record<string, SurfaceParameter>);
  return Object.fromEntries(
    parameters.flatMap(([name, parameter]): [string, unknown][] =>
      parameter.kind === "pool" ? [[name, WETH]] : parameter.kind === "pools" ? [[name, [WETH]]] : [],
    ),
  );
}

/** A tool call and the GET that must answer the same JSON (the tool's `structuredContent`). */
export type GetCase = { tool: ToolName; args: Record<string, unknown>; url: string };

/** A success case per tool and argument shape (verify_attestation is checked with an attestation taken live). */
export const GET_CASES: GetCase[] = [
  { tool: "list_pools", args: {}, url: "/api/v1/pools" },
  { tool: "get_attestation", args: { pool: WETH }, url: `/api/v1/pool/${WETH}` },
  { tool: "get_attestation", args: { pool: POOLS.weth }, url: `/api/v1/pool/${POOLS.weth}` },
  { tool: "get_attestation", args: { pool: IDS.e }, url: `/api/v1/pool/${IDS.e}` },
  { tool: "get_pool_history", args: { pool: WETH }, url: `/api/v1/pool/${WETH}/history` },
  { tool: "get_pool_history", args: { pool: POOLS.weth, days: "7" }, url: `/api/v1/pool/${POOLS.weth}/history?days=7` },
  { tool: "get_attester", args: {}, url: "/api/v1/attester" },
  { tool: "get_volume", args: {}, url: "/api/v1/volume" },
  { tool: "get_volume", args: { days: 7, turnoverLimit: 1 }, url: "/api/v1/volume?days=7&turnoverLimit=1" },
  { tool: "get_volume", args: { days: "3" }, url: "/api/v1/volume?days=3" },
  { tool: "get_activity", args: {}, url: "/api/v1/activity" },
  { tool: "get_activity", args: { limit: 2 }, url: "/api/v1/activity?limit=2" },
  { tool: "get_activity", args: { limit: "3", kind: ["pool.stale"] }, url: "/api/v1/activity?limit=3&kind=pool.stale" },
  {
    tool: "get_activity",
    args: { kind: "ingest.pass, registry.Registered" },
    url: "/api/v1/activity?kind=ingest.pass,registry.Registered",
  },
  { tool: "get_liquidity_map", args: {}, url: "/api/v1/liquidity-map" },
  {
    tool: "get_liquidity_map",
    args: { chainId: 8453, limit: "1", offset: 1 },
    url: "/api/v1/liquidity-map?chainId=8453&limit=1&offset=1",
  },
  { tool: "get_pool_claims", args: { pool: WETH }, url: `/api/v1/pool/${WETH}/claims` },
  { tool: "get_pool_claims", args: { pool: POOLS.weth }, url: `/api/v1/pool/${POOLS.weth}/claims` },
  { tool: "compare_pools", args: { pools: [IDS.a, IDS.b] }, url: `/api/v1/compare?pools=${IDS.a},${IDS.b}` },
  {
    tool: "compare_pools",
    args: { pools: `${IDS.e}, ${IDS.f},${IDS.h}` },
    url: `/api/v1/compare?pools=${IDS.e},${IDS.f},${IDS.h}`,
  },
  // A declared surface without a required parameter (a pool, a list of pools), called with no argument (its
  // defaults): the tool answers what its route answers.
  ...DECLARED.filter(({ surface }) =>
    Object.values(surface.parameters as Record<string, SurfaceParameter>).every(
      (parameter) => parameter.kind !== "pool" && parameter.kind !== "pools",
    ),
  ).map(({ tool, url }) => ({ tool, args: {}, url })),
];

/** A bad call, the code it answers, and (when the route answers the same error) the GET that must match it. */
export type ErrorCase = { tool: ToolName; args: Record<string, unknown>; code: string; field?: string; url?: string };

const UNKNOWN = "eip155:1:0x00000000000000000000000000000000000000aa";

export const ERROR_CASES: ErrorCase[] = [
  {
    tool: "get_pool_history",
    args: { pool: "nope" },
    code: "INVALID_POOL_ID",
    field: "pool",
    url: "/api/v1/pool/nope/history",
  },
  { tool: "get_pool_history", args: { pool: WETH, days: 0 }, code: "INVALID_PARAMETER", field: "days" },
  { tool: "get_attestation", args: { pool: "nope" }, code: "INVALID_POOL_ID", field: "pool", url: "/api/v1/pool/nope" },
  { tool: "get_attestation", args: {}, code: "INVALID_POOL_ID", field: "pool" },
  { tool: "get_attestation", args: { pool: 12 }, code: "INVALID_POOL_ID", field: "pool" },
  { tool: "get_attestation", args: { pool: UNKNOWN }, code: "POOL_NOT_FOUND", url: `/api/v1/pool/${UNKNOWN}` },
  {
    tool: "get_attestation",
    args: { pool: POOLS.shared },
    code: "AMBIGUOUS_POOL",
    url: `/api/v1/pool/${POOLS.shared}`,
  },
  { tool: "get_attestation", args: { pool: IDS.g }, code: "NO_ATTESTATION", url: `/api/v1/pool/${IDS.g}` },
  { tool: "get_volume", args: { days: 0 }, code: "INVALID_PARAMETER", field: "days" },
  { tool: "get_volume", args: { days: "a week" }, code: "INVALID_PARAMETER", field: "days" },
  { tool: "get_volume", args: { turnoverLimit: 1001 }, code: "INVALID_PARAMETER", field: "turnoverLimit" },
  { tool: "get_volume", args: { days: true }, code: "INVALID_PARAMETER", field: "days" },
  {
    tool: "get_activity",
    args: { cursor: "bogus" },
    code: "INVALID_CURSOR",
    field: "cursor",
    url: "/api/v1/activity?cursor=bogus",
  },
  {
    tool: "get_activity",
    args: { kind: ["not a kind!"] },
    code: "INVALID_PARAMETER",
    field: "kind",
    url: "/api/v1/activity?kind=not%20a%20kind!",
  },
  {
    tool: "get_activity",
    args: { kind: "pool.stale,pool.nope" },
    code: "INVALID_PARAMETER",
    field: "kind",
    url: "/api/v1/activity?kind=pool.stale,pool.nope",
  },
  { tool: "get_activity", args: { limit: 201 }, code: "INVALID_PARAMETER", field: "limit" },
  {
    tool: "get_pool_claims",
    args: { pool: WETH, cursor: "bogus" },
    code: "INVALID_CURSOR",
    field: "cursor",
    url: `/api/v1/pool/${WETH}/claims?cursor=bogus`,
  },
  { tool: "get_pool_claims", args: { pool: UNKNOWN }, code: "POOL_NOT_FOUND", url: `/api/v1/pool/${UNKNOWN}/claims` },
  {
    tool: "get_pool_claims",
    args: { pool: "nope" },
    code: "INVALID_POOL_ID",
    field: "pool",
    url: "/api/v1/pool/nope/claims",
  },
  {
    tool: "get_model_claims",
    args: { cursor: "bogus" },
    code: "INVALID_CURSOR",
    field: "cursor",
    url: "/api/v1/model/claims?cursor=bogus",
  },
  { tool: "get_liquidity_map", args: { limit: 0 }, code: "INVALID_PARAMETER", field: "limit" },
  { tool: "get_liquidity_map", args: { chainId: "base" }, code: "INVALID_PARAMETER", field: "chainId" },
  { tool: "get_liquidity_map", args: { offset: -1 }, code: "INVALID_PARAMETER", field: "offset" },
  { tool: "compare_pools", args: { pools: [] }, code: "NO_POOLS", field: "pools" },
  { tool: "compare_pools", args: {}, code: "NO_POOLS", field: "pools" },
  {
    tool: "compare_pools",
    args: { pools: [IDS.a, IDS.b, IDS.c, IDS.d, IDS.e] },
    code: "TOO_MANY_POOLS",
    field: "pools",
    url: `/api/v1/compare?pools=${[IDS.a, IDS.b, IDS.c, IDS.d, IDS.e].join(",")}`,
  },
  {
    tool: "compare_pools",
    args: { pools: [IDS.a, `1:${M.a.toUpperCase().replace("0X", "0x")}`] },
    code: "REPEATED_POOL",
    field: "pools",
    url: `/api/v1/compare?pools=${IDS.a},1:${M.a.toUpperCase().replace("0X", "0x")}`,
  },
  {
    tool: "compare_pools",
    args: { pools: "x" },
    code: "INVALID_POOL_ID",
    field: "pools",
    url: "/api/v1/compare?pools=x",
  },
  {
    tool: "compare_pools",
    args: { pools: [UNKNOWN] },
    code: "POOL_NOT_FOUND",
    url: `/api/v1/compare?pools=${UNKNOWN}`,
  },
  {
    tool: "compare_pools",
    args: { pools: [POOLS.shared] },
    code: "AMBIGUOUS_POOL",
    url: `/api/v1/compare?pools=${POOLS.shared}`,
  },
  { tool: "verify_attestation", args: {}, code: "INVALID_ATTESTATION" },
  { tool: "verify_attestation", args: { attestation: 42 }, code: "INVALID_ATTESTATION" },
  { tool: "verify_attestation", args: { attestation: "{not json" }, code: "INVALID_JSON" },
];
