import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listWalletApiKeys } from "../../../../../read/listWalletApiKeys";
import { createApiKey } from "../../../../../write/createApiKey";
import { revokeApiKey } from "../../../../../write/revokeApiKey";
import { CreatedWalletApiKeyWithRowSchema, createdApiKeyRowHtml } from "../../../../createdRows";
import {
  CreateWalletApiKeyBodySchema,
  RevokedWalletApiKeySchema,
  WalletApiKeyParamsSchema,
  WalletApiKeysResponseSchema,
} from "../../../../schemas/appApi";
import { errorResponses } from "../../../../schemas/error";

/**
 * The signed-in wallet's API keys (owner: its lower-case address), for the keys page:
 * `GET /app/api/keys` lists them; `POST /app/api/keys` creates one and answers the key once, with its table row as
 * the page renders it (`rowHtml`) (201), or 409 `TOO_MANY_KEYS` when the wallet holds `MAX_KEYS_PER_WALLET` keys;
 * `DELETE /app/api/keys/{id}` revokes one of the wallet's own (and pauses the alert subscriptions made with it). Each needs the session (401 without); the POST and the
 * DELETE also need an `Origin` equal to the service's own (403 otherwise: the CSRF rule).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const changes = [fastify.requireSession, fastify.requireSameOrigin];

  fastify.get(
    "/",
    {
      schema: { hide: true, response: { 200: WalletApiKeysResponseSchema, ...errorResponses(401, 429) } },
      preHandler: fastify.requireSession,
    },
    async function listKeys(request) {
      return listWalletApiKeys(readContext, { address: request.session!.address });
    },
  );

  fastify.post(
    "/",
    {
      schema: {
        hide: true,
        body: CreateWalletApiKeyBodySchema,
        response: { 201: CreatedWalletApiKeyWithRowSchema, ...errorResponses(400, 401, 403, 409, 415, 429) },
      },
      preHandler: changes,
      // Checked as written: an unknown member or a label that is not a string is a 400, never dropped or coerced.
      validatorCompiler: (route) =>
        TypeBoxValidatorCompiler(route as unknown as Parameters<typeof TypeBoxValidatorCompiler>[0]),
    },
    async function createKey(request, reply) {
      const created = await createApiKey(readContext, {
        owner: request.session!.address,
        label: request.body.label ?? null,
        maxKeys: fastify.config.signIn.maxKeysPerWallet,
      });
      reply.header("cache-control", "no-store");
      const { id, key, label, createdAt } = created;
      return reply.code(201).send({ id, key, label, createdAt, rowHtml: createdApiKeyRowHtml(created) });
    },
  );

  fastify.delete(
    "/:id",
    {
      schema: {
        hide: true,
        params: WalletApiKeyParamsSchema,
        response: { 200: RevokedWalletApiKeySchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: changes,
    },
    async function revokeKey(request) {
      const revoked = await revokeApiKey(readContext, { id: request.params.id, owner: request.session!.address });
      return { id: request.params.id, revoked };
    },
  );
};

export default plugin;
