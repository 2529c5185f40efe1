import { Type } from "@sinclair/typebox";
import { integerInput } from "./common";

/** `POST /api/v1/verify` body: the attestation exactly as `GET /api/v1/pool/{pool}` returned it. */
export const VerifyBodySchema = Type.Object(
  {
    chainId: integerInput("the pool's chain"),
    confidence: Type.Number({ minimum: 0, description: "a JSON number (a string is rejected)" }),
    expiry: integerInput("Unix seconds"),
    horizon: integerInput("days"),
    issuedAt: integerInput("Unix seconds"),
    pool: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
    signature: Type.String({ pattern: "^(0x|0X)?[0-9a-fA-F]{130}$", description: "65 bytes hex" }),
    // Informational in the payload (the library and the CLI ignore it), so any JSON value is accepted.
    attester: Type.Optional(Type.Unknown({ description: "ignored: the service checks against its own attester" })),
  },
  { additionalProperties: true },
);

/** `POST /api/v1/verify` answer. */
export const VerifyResponseSchema = Type.Object({
  valid: Type.Boolean({ description: "the signature recovers to the service's attester" }),
  attester: Type.Union([Type.String(), Type.Null()], { description: "the recovered address (null if unrecoverable)" }),
  expired: Type.Boolean({ description: "expiry <= now; independent of valid" }),
  canonical: Type.String({ description: "the canonical message that was checked" }),
});
