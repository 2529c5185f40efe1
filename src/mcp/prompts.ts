import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod/v4";
import { listPools } from "../read/listPools";
import { MAX_COMPARED_POOLS } from "../errors/market";
import type { McpDeps } from "./deps";

/** The most suggestions one completion answers (MCP caps a completion at 100 values). */
export const MAX_COMPLETIONS = 100;

/** The prompts' names, in the order `prompts/list` gives them. */
export const PROMPT_NAMES = ["assess_pool_horizon", "compare_pools_evidence"] as const;

/**
 * Tracked pool ids that complete `typed`: ids starting with it, then ids whose symbol or protocol contains it (any
 * case); a list argument (`a,b,c`) completes its last item and keeps the others. At most {@link MAX_COMPLETIONS}.
 */
export async function completePoolIds(
  deps: McpDeps,
  typed: string,
  options: { list?: boolean; max?: number } = {},
): Promise<string[]> {
  const parts = options.list ? typed.split(",") : [typed];
  const last = (parts.pop() ?? "").trim().toLowerCase();
  const kept = parts.map((part) => part.trim()).filter((part) => part !== "");
  // A list already at its bound gets no further item.
  if (options.max !== undefined && kept.length >= options.max) return [];
  const { pools } = await listPools(deps.readContext);
  const taken = new Set(kept.map((part) => part.toLowerCase()));
  const candidates = pools.filter((pool) => !taken.has(pool.id));
  const byId = candidates.filter((pool) => pool.id.startsWith(last));
  const byLabel = candidates.filter(
    (pool) =>
      !pool.id.startsWith(last) &&
      (pool.symbol.toLowerCase().includes(last) || pool.protocol.toLowerCase().includes(last)),
  );
  const prefix = kept.length > 0 ? `${kept.join(",")},` : "";
  return [...byId, ...byLabel].slice(0, MAX_COMPLETIONS).map((pool) => `${prefix}${pool.id}`);
}

/** One user message: the text a model reads as the question. */
const ask = (text: string) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text } }] });

/**
 * Registers the prompts for the common questions (docs/mcp.md): assess one pool's horizon with its evidence, and
 * compare pools without ranking them. Their pool arguments complete from the tracked pools (`completion/complete`). The
 * prompts only frame the question: every figure comes from the tools, so the answer cannot drift from the API.
 */
export function registerPrompts(server: McpServer, deps: McpDeps): void {
  server.registerPrompt(
    "assess_pool_horizon",
    {
      title: "Assess a pool's liquidity horizon with its evidence",
      description:
        "How long is this pool's depth likely to hold, how sure is the service, and what is that based on? Uses " +
        "get_attestation, verify_attestation and get_pool_history.",
      argsSchema: {
        pool: completable(
          z.string().describe("the pool: eip155:<chainId>:0x<address> as list_pools gives it (completes)"),
          (value) => completePoolIds(deps, value ?? ""),
        ),
      },
    },
    ({ pool }) =>
      ask(
        [
          `Assess the liquidity horizon of the pool ${pool}.`,
          "1. Call get_attestation for it. If there is none, say why (the error's message) and stop at step 3.",
          "2. Call verify_attestation with the attestation text and report whether it is valid, by which attester, and whether it has expired.",
          "3. Call get_pool_history (days 30) and describe the daily lowest depths, marking days whose source is feed-daily, and each past claim's floorUsd against the lows it covers.",
          "State the horizon in days, the confidence (the model's estimate: how often like windows held across the tracked pools, whose track record get_model_evaluation shows; not a promise about the future) and the floor in USD.",
          "Say what the evidence supports and where it is thin (few days, stale depth, feed-daily days). It is evidence, not a guarantee; do not advise on investing.",
        ].join("\n"),
      ),
  );
  server.registerPrompt(
    "compare_pools_evidence",
    {
      title: "Compare pools without ranking them",
      description:
        `Set two to ${MAX_COMPARED_POOLS} pools side by side on depth, horizon, confidence, volume and incentives, ` +
        "without naming a winner (compare_pools takes at most that many). Uses compare_pools and get_pool_history.",
      argsSchema: {
        pools: completable(
          z.string().describe(`pool ids, comma-separated (2 to ${MAX_COMPARED_POOLS}; the last one completes)`),
          (value) => completePoolIds(deps, value ?? "", { list: true, max: MAX_COMPARED_POOLS }),
        ),
      },
    },
    ({ pools }) =>
      ask(
        [
          `Compare these pools: ${pools}.`,
          "Call compare_pools with them, then get_pool_history for each (days 30).",
          "Give one table with a row per pool: depth in USD (marked stale where stale), horizon in days, confidence, 24 h volume, incentives and when they end.",
          "Then, per dimension, say where the pools differ and how much the difference rests on (days of history, stale values).",
          "Do not rank the pools or pick one: the reader weighs the dimensions for their own purpose.",
        ].join("\n"),
      ),
  );
}
