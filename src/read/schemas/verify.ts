import * as z from "zod/v4";
import type { VerifyAgainstAttesterReturnType } from "../verifyAgainstAttester";
import { type Json } from "./common";

/** `verify_attestation` (`POST /api/v1/verify`). */
export const VerifySchema = z.strictObject({
  valid: z.boolean().describe("the signature recovers to the service's attester"),
  attester: z.string().nullable().describe("the recovered address (null if unrecoverable)"),
  expired: z.boolean().describe("expiry <= now; independent of valid"),
  canonical: z.string().describe("the canonical message that was checked"),
}) satisfies z.ZodType<Json<VerifyAgainstAttesterReturnType>>;
