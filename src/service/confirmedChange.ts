import type { Static, TObject } from "@sinclair/typebox";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Session } from "../auth/types";
import { renderErrorPage } from "../web/pages/error";

type TypeBoxInstance = Parameters<FastifyPluginAsyncTypebox>[0];

/** What a confirmed change did: where to go next (303), or the error page to show (its status and message). */
export type ConfirmedChangeResult = { location: string } | { error: { status: number; code: string; message: string } };

/**
 * The `POST` of a confirmation page's form (`web/pages/confirm.ts`), the no-JavaScript way to a destructive action.
 * The form sends no field: the body (`application/x-www-form-urlencoded`, at most 1 KiB) is read and ignored. A
 * request without a session goes to sign-in (303, `next` the same path, whose `GET` is the confirmation page again);
 * one without this service's `Origin` is refused (403 `ORIGIN_REFUSED`, the CSRF rule of every dapp change, as an
 * HTML page). Then `change` runs, and the browser is sent on (303 to `location`) or shown the error page.
 */
export function confirmedChange<P extends TObject>(
  fastify: TypeBoxInstance,
  path: string,
  params: P,
  change: (request: FastifyRequest<{ Params: Static<P> }> & { session: Session }) => Promise<ConfirmedChangeResult>,
): void {
  if (!fastify.hasContentTypeParser("application/x-www-form-urlencoded")) {
    fastify.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, _body, done) => done(null, {}),
    );
  }
  fastify.post(
    path,
    { schema: { hide: true, params }, preHandler: [fastify.requirePageSession, fastify.requireSameOrigin] },
    async function confirmedPost(request, reply) {
      const result = await change(request as unknown as FastifyRequest<{ Params: Static<P> }> & { session: Session });
      if ("location" in result) return reply.redirect(result.location, 303);
      const { dapp } = fastify;
      return dapp.sendPage(reply, renderErrorPage(result.error, dapp.chrome(request)), result.error.status);
    },
  );
}
