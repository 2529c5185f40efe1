import { Type } from "@sinclair/typebox";
import { uint } from "./common";

/**
 * The dapp's JSON routes (`/app/api/...`): the signed-in wallet's own keys and requests. They need the session
 * cookie; their POSTs and DELETEs also need an `Origin` equal to the service's own (the CSRF rule). Not in the
 * OpenAPI document: they are the pages' back end, not part of the open API.
 */

/** One of the wallet's keys (never the key, never its hash). */
export const WalletApiKeySchema = Type.Object(
  {
    id: Type.String(),
    label: Type.Union([Type.String(), Type.Null()]),
    createdAt: uint("Unix seconds"),
    revokedAt: Type.Union([uint("Unix seconds"), Type.Null()]),
  },
  { additionalProperties: false },
);

/** `GET /app/api/keys`. */
export const WalletApiKeysResponseSchema = Type.Object({ keys: Type.Array(WalletApiKeySchema) });

/** `POST /app/api/keys` body. */
export const CreateWalletApiKeyBodySchema = Type.Object(
  { label: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])) },
  { additionalProperties: false },
);

/** `POST /app/api/keys` answer (201): the key itself, this once. */
export const CreatedWalletApiKeySchema = Type.Object({
  id: Type.String(),
  key: Type.String({ description: "the API key: shown once, never stored" }),
  label: Type.Union([Type.String(), Type.Null()]),
  createdAt: uint("Unix seconds"),
});

/** `DELETE /app/api/keys/{id}`. */
export const WalletApiKeyParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * `DELETE /app/api/keys/{id}` answer (200): `revoked` is true when the key was revoked by this request, false when the
 * wallet has no working key with that id (unknown, another wallet's, or already revoked: the three look the same, so
 * nobody learns another wallet's key ids).
 */
export const RevokedWalletApiKeySchema = Type.Object({ id: Type.String(), revoked: Type.Boolean() });

/** `GET /app/api/liquidity-requests`: the wallet's own requests, newest first. */
export const WalletLiquidityRequestsQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
});

export const WalletLiquidityRequestsResponseSchema = Type.Object({
  requests: Type.Array(
    Type.Object({
      id: Type.String(),
      chainId: uint("the chain"),
      pool: Type.Union([Type.String(), Type.Null()]),
      asset: Type.Union([Type.String(), Type.Null()]),
      amountUsd: Type.Number(),
      horizonDays: Type.Integer(),
      note: Type.Union([Type.String(), Type.Null()]),
      apiKeyId: Type.String(),
      keyLabel: Type.Union([Type.String(), Type.Null()]),
      createdAt: uint("Unix seconds"),
    }),
  ),
});
