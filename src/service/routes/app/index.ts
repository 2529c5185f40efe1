import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiErrorCode } from "../../../errors/http";
import { ASSET_CACHE_CONTROL } from "../../../web/headers";
import { renderErrorPage } from "../../../web/pages/error";
import { safeNextPath } from "../../../auth/safeNextPath";
import { renderSignInPage } from "../../../web/pages/signIn";
import { SignInQuerySchema } from "../../schemas/appPages";

/**
 * `/app/`: the dapp's entry (redirects to the pools), the sign-in page (the only page without a session), the
 * client bundle's files (`/app/assets/<name>.<hash>.<ext>`, cached for a year), and an HTML 404 for any other
 * `/app/...` path. Each page is a folder beside this file.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { dapp } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  fastify.setNotFoundHandler(function pageNotFound(request, reply) {
    if (request.url.startsWith("/app/api/")) {
      const path = request.url.split("?")[0].slice(0, 200);
      return reply
        .code(404)
        .send({ error: { code: ApiErrorCode.routeNotFound, message: `No route ${request.method} ${path}.` } });
    }
    const page = renderErrorPage(
      { status: 404, code: ApiErrorCode.routeNotFound, message: "There is no such page." },
      dapp.chrome(request),
    );
    return dapp.sendPage(reply, page, 404);
  });

  fastify.get("/", { schema: { hide: true } }, async function appHome(_request, reply) {
    return reply.redirect("/app/pools", 303);
  });

  fastify.get(
    "/sign-in",
    { schema: { hide: true, querystring: SignInQuerySchema } },
    async function signInPage(request, reply) {
      const next = safeNextPath(request.query.next);
      // Already signed in: straight on to where the visitor was going.
      if (request.session !== null) return reply.redirect(next, 303);
      return dapp.sendPage(reply, renderSignInPage({ assets: dapp.assets.urls, next }));
    },
  );

  fastify.get<{ Params: { file: string } }>(
    "/assets/:file",
    { schema: { hide: true } },
    async function asset(request, reply) {
      const file = dapp.assets.get(request.params.file);
      if (file === undefined) {
        return reply.code(404).send({
          error: { code: ApiErrorCode.routeNotFound, message: "No such dapp asset (the bundle was rebuilt?)." },
        });
      }
      reply.headers({
        "content-type": file.type,
        "cache-control": ASSET_CACHE_CONTROL,
        etag: file.etag,
        "x-content-type-options": "nosniff",
      });
      if (request.headers["if-none-match"] === file.etag) return reply.code(304).send();
      return reply.send(file.body);
    },
  );
};

export default plugin;
