import { Type } from "@sinclair/typebox";
import { MAX_AMOUNT_USD, MAX_HORIZON_DAYS, MAX_NOTE_LENGTH } from "../../write/parseLiquidityRequestInput";
import { uint } from "./common";

const ADDRESS = "^0x[0-9a-fA-F]{40}$";

/**
 * `POST /api/v1/liquidity-requests` body. The route checks it with `parseLiquidityRequestInput` (no coercion, unknown
 * members refused, exactly one of `pool` and `asset`); this schema describes the same rules for the OpenAPI document.
 */
export const LiquidityRequestBodySchema = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "the chain, a JSON integer" }),
    pool: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: "a tracked pool: 0x<address>, <chainId>:0x<address> or eip155:<chainId>:0x<address>",
      }),
    ),
    asset: Type.Optional(
      Type.Union([Type.String({ pattern: ADDRESS }), Type.Null()], {
        description: "a token address (instead of pool)",
      }),
    ),
    amountUsd: Type.Number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT_USD, description: "USD, a JSON number" }),
    horizonDays: Type.Integer({ minimum: 1, maximum: MAX_HORIZON_DAYS, description: "days the liquidity should stay" }),
    note: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NOTE_LENGTH }), Type.Null()])),
  },
  {
    additionalProperties: false,
    description: "Exactly one of pool and asset. A member given as null counts as absent.",
    examples: [
      { chainId: 1, pool: "eip155:1:0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc", amountUsd: 250000, horizonDays: 30 },
    ],
  },
);

/** The `Idempotency-Key` request header. */
export const LiquidityRequestHeadersSchema = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      description:
        "1–255 visible ASCII characters (e.g. a UUID): a retry with the same key and body returns the first answer",
    }),
  ),
});

/** `POST /api/v1/liquidity-requests` answer (201), repeated exactly by an idempotent replay. */
export const LiquidityRequestSchema = Type.Object(
  {
    id: Type.String({ description: "the request's id" }),
    chainId: uint("the chain"),
    pool: Type.Union([Type.String(), Type.Null()], { description: "eip155:<chainId>:<address>, or null (asset)" }),
    asset: Type.Union([Type.String(), Type.Null()], { description: "lower-case token address, or null (pool)" }),
    amountUsd: Type.Number(),
    horizonDays: Type.Integer(),
    note: Type.Union([Type.String(), Type.Null()]),
    apiKeyId: Type.String({ description: "the id of the API key that wrote it (never the key)" }),
    createdAt: uint("Unix seconds"),
  },
  { title: "LiquidityRequest" },
);
