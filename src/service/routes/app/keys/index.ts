import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiErrorCode } from "../../../../errors/http";
import { listWalletApiKeys } from "../../../../read/listWalletApiKeys";
import { revokeApiKey } from "../../../../write/revokeApiKey";
import { renderApiKeysPage, revokeKeyPath, revokeKeyQuestion } from "../../../../web/pages/apiKeys";
import { renderConfirmPage } from "../../../../web/pages/confirm";
import { renderErrorPage } from "../../../../web/pages/error";
import { pageRoutes } from "../../../pageRoutes";
import { confirmedChange } from "../../../confirmedChange";
import { KeysPageQuerySchema } from "../../../schemas/appPages";

const KeyParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** What the confirmation page says when the wallet has no working key with the id. */
const NO_SUCH_KEY = {
  status: 404,
  code: ApiErrorCode.routeNotFound,
  message: "This wallet has no working key with this id.",
};

/**
 * `GET /app/keys`: the wallet's API keys (`listWalletApiKeys`, as `GET /app/api/keys`); create and revoke in the page.
 * Revoking asks first: in the page's dialog with the client bundle, or without it on `GET /app/keys/{id}/revoke`, whose
 * "Revoke key" button POSTs to the same path (session and same `Origin`, as `DELETE /app/api/keys/{id}`) and goes back
 * to the keys with a notice (303).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);
  page("/", { querystring: KeysPageQuerySchema }, async function keysPage(request, chrome) {
    const keys = await listWalletApiKeys(readContext, { address: request.session.address });
    return renderApiKeysPage(keys, chrome, request.query.revoked ?? null);
  });

  page("/:id/revoke", { params: KeyParamsSchema }, async function revokeKeyPage(request, chrome) {
    const { keys } = await listWalletApiKeys(readContext, { address: request.session.address });
    const key = keys.find((k) => k.id === request.params.id && k.revokedAt === null);
    if (key === undefined) return { html: renderErrorPage(NO_SUCH_KEY, chrome), status: 404 };
    const action = revokeKeyPath(key.id);
    return {
      html: renderConfirmPage({ page: "keys", question: revokeKeyQuestion(key), action, back: "/app/keys" }, chrome),
      status: 200,
      referrerPolicy: "same-origin",
    };
  });

  confirmedChange(fastify, "/:id/revoke", KeyParamsSchema, async function revokeKeyConfirmed(request) {
    const { id } = request.params;
    const revoked = await revokeApiKey(readContext, { id, owner: request.session.address });
    if (!revoked) return { error: NO_SUCH_KEY };
    return { location: `/app/keys?revoked=${encodeURIComponent(id)}` };
  });
};

export default plugin;
