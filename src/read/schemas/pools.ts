import * as z from "zod/v4";
import { uint } from "./common";

const PoolRowSchema = z.strictObject({
  id: z.string().describe("eip155:<chainId>:<address>: pass it to get_attestation or compare_pools"),
  chainId: uint("chain id"),
  address: z.string().describe("lower case"),
  symbol: z.string(),
  protocol: z.string().describe("the venue"),
  kind: z.enum(["amm", "lending"]),
  depthUsd: z.number().nullable().describe("USD; null when never observed"),
  observedAt: uint("Unix seconds of the depth observation").nullable(),
  stale: z.boolean().describe("older than the freshness window (or never observed): held out of totals"),
  horizon: z.int().min(0).nullable().describe("days claimed by the pool's latest attestation; null: none issued"),
  confidence: z.number().min(0).max(1).nullable().describe("0 to 1, of the latest attestation; null: none issued"),
  expiry: uint("Unix seconds: the latest attestation's expiry (past: expired)").nullable(),
  noAttestationReason: z
    .string()
    .nullable()
    .describe(
      "why the pool has no attestation (the issuer's last verdict, a stale or never observed depth); null: it has one",
    ),
});

/** `list_pools` (`GET /api/v1/pools`). */
export const PoolsSchema = z.strictObject({
  pools: z.array(PoolRowSchema).describe("by chain, then address"),
  total: z.strictObject({
    depthUsd: z.number().describe("USD, summed over fresh pools only"),
    pools: z.int().describe("fresh pools counted"),
  }),
  heldOut: z.strictObject({
    depthUsd: z.number().describe("USD: the stale depths held out of the total, published beside it"),
    pools: z.array(z.string()).describe("ids of stale pools"),
  }),
  freshnessWindowS: uint("seconds"),
  asOf: uint("Unix seconds"),
});
