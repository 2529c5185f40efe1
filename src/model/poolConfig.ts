import type { Address } from "viem";
import { z } from "zod";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x followed by 40 hex digits")
  .transform((value) => value.toLowerCase() as Address);

/** One tracked pool: its on-chain identity and the feed identifiers that map it (docs/data.md#pools-file). */
export const poolConfigSchema = z
  .object({
    chainId: z.number().int().positive(),
    /** AMM: the pair. Lending: the reserve's aToken. */
    address,
    kind: z.enum(["amm", "lending"]),
    symbol: z.string().min(1),
    protocol: z.string().min(1),
    /** Aave Pool (lending only). */
    lendingPool: address.optional(),
    /** Underlying asset (lending only). */
    underlying: address.optional(),
    /** DefiLlama yields pool uuid. */
    defillamaId: z.string().min(1).optional(),
    /** Merkl opportunity id or identifier. */
    merklId: z.string().min(1).optional(),
  })
  .strict();
export type PoolConfig = z.infer<typeof poolConfigSchema>;
