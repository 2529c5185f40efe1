import { Type } from "@sinclair/typebox";
import { VerifySchema } from "../../read/schemas/verify";
import { fromZod } from "./fromZod";
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

/** `POST /api/v1/verify` answer: its one declaration, `src/read/schemas/verify.ts`, as JSON Schema. */
export const VerifyResponseSchema = fromZod(VerifySchema);
