import * as z from "zod/v4";
import { uint } from "./common";

/** The v2 block as stored and served: integers as decimal strings, `types` without `EIP712Domain`. */
const Eip712Schema = z
  .strictObject({
    domain: z.strictObject({
      name: z.string(),
      version: z.string(),
      chainId: z.union([z.string(), z.int()]),
      verifyingContract: z.string(),
    }),
    types: z.record(z.string(), z.array(z.strictObject({ name: z.string(), type: z.string() }))),
    primaryType: z.string(),
    message: z.record(z.string(), z.union([z.string(), z.number()])),
    signature: z.string(),
  })
  .describe("v2: EIP-712 typed data for the AttestationRegistry, present once a registry is configured");

const depthOrNull = (description: string) => z.number().nullable().describe(description);

/** The signed fields of an attestation, its signature and signer, as served. */
const signedFields = {
  chainId: uint("signed: the pool's chain (as a decimal string in the canonical message)"),
  confidence: z.number().min(0).max(1).describe("signed: with exactly two fraction digits"),
  expiry: uint("signed: Unix seconds (expiresAt in the canonical message)"),
  horizon: uint("signed: days (horizonDays in the canonical message)"),
  issuedAt: uint("signed: Unix seconds"),
  pool: z
    .string()
    .regex(/^0x[0-9a-f]{40}$/)
    .describe("signed: lower-case pool address"),
  signature: z.string().describe("EIP-191 signature of the canonical message, 65 bytes hex"),
  attester: z.string().describe("informational: never use it as the expected signer"),
};

/** An attestation exactly as signed: the v1 fields, the signature, the signer, and the v2 block when stored. */
export const SignedAttestationSchema = z
  .strictObject({ ...signedFields, eip712: Eip712Schema.optional() })
  .describe("the attestation as issued and signed (verify it as GET /api/v1/pool/{pool}'s)");

/** `get_attestation` (`GET /api/v1/pool/{pool}`): the pre-signed attestation, its v2 block, the claim, the evidence. */
export const AttestationSchema = z.strictObject({
  ...signedFields,
  symbol: z.string().describe("not signed"),
  protocol: z.string().describe("not signed"),
  outcome: z
    .string()
    .describe(
      "not signed: the accuracy record's grade (held, failed or void) once the claim's window closed and the leader graded it; else \"pending\" (a re-issue of the same UTC day is never graded: the day's first attestation is the graded claim)",
    ),
  eip712: Eip712Schema.optional(),
  claim: z.strictObject({
    statement: z.string(),
    floor: z.number().describe("share of the depth at issuance the claim keeps"),
    depthAtIssuanceUsd: z.number().describe("USD"),
    thresholdUsd: z.number().describe("USD: floor × depthAtIssuanceUsd"),
    model: z.string().describe("the horizon model and its version"),
    settlesAt: uint("Unix seconds: issuedAt + horizon days, when the claim's window closes"),
    lowestDepthUsd: depthOrNull(
      "USD: lowest depth observed inside the claim's own window so far (evidence only, settles nothing)",
    ),
    lowestDepthDate: z.string().nullable().describe("YYYY-MM-DD (UTC) of that low"),
    daysObserved: z.int().min(0).describe("days with a recorded low inside the window so far"),
  }),
  evidence: z.strictObject({
    windowStart: uint("issuedAt"),
    windowEnd: uint("issuedAt + horizon days"),
    windowStartDate: z.string().describe("YYYY-MM-DD (UTC)"),
    windowEndDate: z.string().describe("YYYY-MM-DD (UTC)"),
    waiting: z.boolean().describe("the horizon has not been reached"),
    lowestDepthUsd: depthOrNull("USD: lowest depth observed inside the window so far"),
    lowestDepthObservedAt: uint("Unix seconds").nullable(),
    lowestDepthDay: z.string().nullable(),
    daysObserved: z.int().min(0),
    note: z.string(),
  }),
});
