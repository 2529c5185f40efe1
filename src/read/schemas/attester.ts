import * as z from "zod/v4";
import type { AttesterInfo } from "../getAttesterInfo";
import { type Json, uint } from "./common";

/** `get_attester` (`GET /api/v1/attester`). */
export const AttesterSchema = z.strictObject({
  attester: z.string().describe("the expected signer of every attestation (EIP-55): pin it"),
  scheme: z.literal("eip191-v1"),
  registry: z
    .strictObject({ chainId: uint("chain of the registry"), address: z.string() })
    .nullable()
    .describe("the AttestationRegistry the v2 (EIP-712) blocks are bound to; null when none is configured"),
}) satisfies z.ZodType<Json<AttesterInfo>>;
