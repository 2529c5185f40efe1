import { readFile } from "node:fs/promises";
import { z } from "zod";
import { PoolsFileError } from "../errors/config";
import { poolConfigSchema, type PoolConfig } from "../model/poolConfig";

/** The file: `{ "pools": [ … ] }` (a bare array is accepted too). Each (chainId, address) at most once. */
export const poolsFileSchema = z
  .preprocess(
    (value) => (Array.isArray(value) ? { pools: value } : value),
    z.object({ pools: z.array(poolConfigSchema) }).strict(),
  )
  .transform((value) => value.pools)
  .superRefine((pools, ctx) => {
    const seen = new Set<string>();
    pools.forEach((pool, index) => {
      const key = `${pool.chainId}:${pool.address}`;
      if (seen.has(key))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["pools", index], message: `duplicate pool ${key}` });
      seen.add(key);
      if (pool.kind === "amm" && (pool.lendingPool !== undefined || pool.underlying !== undefined)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["pools", index],
          message: "lendingPool/underlying are for lending pools",
        });
      }
    });
  });

/**
 * Validates pool configuration already in memory (e.g. built from the demo's deployments).
 *
 * @param parameters `value`: the parsed JSON; `path`: named in errors.
 * @returns the pools, addresses lower-cased.
 */
export function parsePoolsConfig(parameters: { value: unknown; path?: string }): PoolConfig[] {
  const parsed = poolsFileSchema.safeParse(parameters.value);
  if (!parsed.success) {
    throw new PoolsFileError({
      path: parameters.path ?? "(in memory)",
      issues: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`),
    });
  }
  return parsed.data;
}

/** Parameters of {@link loadPoolsFile}. */
export interface LoadPoolsFileParameters {
  path: string;
}
export type LoadPoolsFileReturnType = PoolConfig[];
export type LoadPoolsFileErrorType = PoolsFileError;

/**
 * Reads and validates the pools file (`POOLS_FILE`). See docs/data.md#pools-file for the format.
 *
 * @param {@link LoadPoolsFileParameters}
 * @returns the tracked pools.
 * @example
 * import { loadPoolsFile } from "./ingest/poolsFile";
 * const pools = await loadPoolsFile({ path: "./pools.json" });
 */
export async function loadPoolsFile(parameters: LoadPoolsFileParameters): Promise<PoolConfig[]> {
  const { path } = parameters;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PoolsFileError({ path, issues: [`cannot read the file (${(error as Error).message})`], cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PoolsFileError({ path, issues: [`not JSON (${(error as Error).message})`], cause: error });
  }
  return parsePoolsConfig({ value, path });
}
