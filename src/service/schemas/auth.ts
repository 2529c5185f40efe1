import { Type } from "@sinclair/typebox";

/** `GET /auth/nonce` answer. */
export const NonceResponseSchema = Type.Object({
  nonce: Type.String({
    pattern: "^[0-9a-f]{32}$",
    description: "single use, expires in 10 minutes; put it in the message's Nonce line",
  }),
});

/** `POST /auth/verify` body: the exact text the wallet signed and its `personal_sign` signature. */
export const VerifySignInBodySchema = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 8192, description: "the EIP-4361 message, exactly as signed" }),
    signature: Type.String({ minLength: 1, maxLength: 4096, description: "0x + 65 bytes r‖s‖v (v 27/28 or 0/1)" }),
  },
  { additionalProperties: false },
);

/** A live session: `POST /auth/verify` and `GET /auth/session` answers. */
export const SessionResponseSchema = Type.Object({
  address: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "the signed-in wallet, EIP-55" }),
  chainId: Type.Integer({ description: "the chain id of the signed message" }),
  expiresAt: Type.Integer({ description: "Unix seconds; the session ends then, or at sign-out" }),
});
