import { Type } from "@sinclair/typebox";
import { uint } from "./common";

/** The v2 block: EIP-712 typed data and its signature. */
const Eip712Schema = Type.Object(
  {
    domain: Type.Object({
      name: Type.String(),
      version: Type.String(),
      chainId: Type.Union([Type.String(), Type.Integer()]),
      verifyingContract: Type.String(),
    }),
    types: Type.Record(Type.String(), Type.Array(Type.Object({ name: Type.String(), type: Type.String() }))),
    primaryType: Type.String(),
    message: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
    signature: Type.String(),
  },
  { description: "v2: EIP-712 typed data for the AttestationRegistry, present once a registry is configured" },
);

/** `GET /api/v1/pool/{pool}`: the pre-signed attestation (spec §2.1), its v2 block, the claim and its evidence. */
export const AttestationResponseSchema = Type.Object(
  {
    chainId: uint("the pool's chain (signed as a decimal string)"),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: "signed with exactly two fraction digits" }),
    expiry: uint("Unix seconds (signed as expiresAt)"),
    horizon: uint("days (signed as horizonDays)"),
    issuedAt: uint("Unix seconds"),
    pool: Type.String({ pattern: "^0x[0-9a-f]{40}$", description: "lower-case pool address" }),
    signature: Type.String({ description: "EIP-191 signature of the canonical message, 65 bytes hex" }),
    attester: Type.String({ description: "informational: never use it as the expected signer" }),
    symbol: Type.String({ description: "not signed" }),
    protocol: Type.String({ description: "not signed" }),
    outcome: Type.String({ description: 'not signed; always "pending" (nothing is graded)' }),
    eip712: Type.Optional(Eip712Schema),
    claim: Type.Object({
      statement: Type.String(),
      floor: Type.Number({ description: "share of the depth at issuance the claim keeps" }),
      depthAtIssuanceUsd: Type.Number(),
      thresholdUsd: Type.Number({ description: "floor × depthAtIssuanceUsd" }),
      model: Type.String({ description: "the horizon model and its version" }),
      settlesAt: uint("Unix seconds: issuedAt + horizon days, when the claim's window closes"),
      lowestDepthUsd: Type.Union([Type.Number(), Type.Null()], {
        description: "lowest depth observed inside the claim's own window so far (evidence only, settles nothing)",
      }),
      lowestDepthDate: Type.Union([Type.String(), Type.Null()], { description: "YYYY-MM-DD (UTC) of that low" }),
      daysObserved: Type.Integer({ minimum: 0, description: "days with a recorded low inside the window so far" }),
    }),
    evidence: Type.Object({
      windowStart: uint("issuedAt"),
      windowEnd: uint("issuedAt + horizon days"),
      windowStartDate: Type.String({ description: "YYYY-MM-DD (UTC)" }),
      windowEndDate: Type.String({ description: "YYYY-MM-DD (UTC)" }),
      waiting: Type.Boolean({ description: "the horizon has not been reached" }),
      lowestDepthUsd: Type.Union([Type.Number(), Type.Null()], {
        description: "lowest depth observed inside the window so far",
      }),
      lowestDepthObservedAt: Type.Union([uint("Unix seconds"), Type.Null()]),
      lowestDepthDay: Type.Union([Type.String(), Type.Null()]),
      daysObserved: Type.Integer({ minimum: 0 }),
      note: Type.String(),
    }),
  },
  { title: "Attestation" },
);
