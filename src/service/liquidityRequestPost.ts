import { TypeBoxValidatorCompiler } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import type { ReadContext } from "../read/context";
import { createLiquidityRequest } from "../write/createLiquidityRequest";
import { parseLiquidityRequestInput } from "../write/parseLiquidityRequestInput";
import type { ResponseCache } from "./plugins/app/response-cache";

type ValidatorInput = Parameters<typeof TypeBoxValidatorCompiler>[0];

/**
 * The validator compiler of both `POST …/liquidity-requests` routes (keyed and signed-in): the body is checked by the
 * write's own rules (`parseLiquidityRequestInput`: one set of messages for every surface, no coercion anywhere), the
 * headers by their TypeBox schema.
 */
export function liquidityRequestValidator(route: { httpPart?: string }) {
  return route.httpPart === "body"
    ? (value: unknown) => {
        try {
          return { value: parseLiquidityRequestInput({ input: value }) && value };
        } catch (error) {
          return { error: error as Error };
        }
      }
    : TypeBoxValidatorCompiler(route as unknown as ValidatorInput);
}

/**
 * Writes a liquidity request for `writerId` (an API key's id, or `wallet:<address>`) and answers as both routes do:
 * 201 with the request, or the first answer again for a repeated `Idempotency-Key` (`idempotent-replayed: true`, and
 * the cached reads kept, since nothing was written).
 */
export async function answerLiquidityRequest(
  services: { readContext: ReadContext; responseCache: ResponseCache },
  request: { body: unknown; headers: { "idempotency-key"?: string } },
  reply: FastifyReply,
  writerId: string,
) {
  const result = await createLiquidityRequest(services.readContext, {
    apiKeyId: writerId,
    input: request.body,
    idempotencyKey: request.headers["idempotency-key"],
  });
  if (result.replayed) reply.header("idempotent-replayed", "true");
  else services.responseCache.invalidate();
  return reply.code(result.status as 201).send(result.body);
}
