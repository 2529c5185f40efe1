import { Type } from "@sinclair/typebox";
import { uint } from "./common";

/** `GET /api/v1/attester`. */
export const AttesterResponseSchema = Type.Object({
  attester: Type.String({ description: "the expected signer of every attestation (EIP-55)" }),
  scheme: Type.Literal("eip191-v1"),
  registry: Type.Union([Type.Object({ chainId: uint("chain of the registry"), address: Type.String() }), Type.Null()]),
});
