import type { Static, TSchema } from "@sinclair/typebox";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Session } from "../auth/types";
import { PAGE_HEADERS } from "../web/headers";
import type { PageChrome } from "../web/layout";

type TypeBoxInstance = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * What a page's render function returns: the page's HTML (200), or the HTML and its status (and, for a page with a
 * form that POSTs here, the `same-origin` referrer policy its `renderPage` was given: see `web/pages/confirm.ts`).
 */
export type PageResult = string | { html: string; status: number; referrerPolicy?: "same-origin" };

/** A page's request after the session check: its query and parameters as their schemas say, and a live session. */
export type PageRequest<Q extends TSchema, P extends TSchema> = FastifyRequest<{
  Querystring: Static<Q>;
  Params: Static<P>;
}> & { session: Session };

/** Renders a page for a signed-in request: read, then render with the request's chrome (header, navigation, bundle). */
export type RenderPage<Q extends TSchema, P extends TSchema> = (
  request: PageRequest<Q, P>,
  chrome: PageChrome,
) => Promise<PageResult>;

/**
 * The page routes of one folder under `routes/app/`. Sets the folder's error handler to the dapp's (an HTML error page
 * with the API's status and message) and returns `page(path, schemas, render)`, which adds a `GET` route, hidden from
 * the OpenAPI document: its query and parameters are checked first (a 400 page), then a request without a session is
 * sent to the sign-in page (303 with `next=`), then `render` reads and renders, and the page goes out with the page
 * headers (CSP, no caching) and its status.
 *
 * @example
 * const page = pageRoutes(fastify);
 * page("/", { querystring: VolumePageQuerySchema }, async function volumePage(request, chrome) {
 *   return renderVolumePage(await getVolume(fastify.readContext, { days: request.query.days }), chrome);
 * });
 */
export function pageRoutes(fastify: TypeBoxInstance) {
  const { dapp } = fastify;
  fastify.setErrorHandler(dapp.pageErrorHandler);
  return function page<Q extends TSchema = TSchema, P extends TSchema = TSchema>(
    path: string,
    schemas: { querystring?: Q; params?: P },
    render: RenderPage<Q, P>,
  ): void {
    fastify.get(
      path,
      { schema: { hide: true, ...schemas }, preHandler: fastify.requirePageSession },
      async function sendRenderedPage(request, reply) {
        const result = await render(request as unknown as PageRequest<Q, P>, dapp.chrome(request));
        if (typeof result === "string") return dapp.sendPage(reply, result);
        if (result.referrerPolicy !== undefined) {
          const headers = { ...PAGE_HEADERS, "referrer-policy": result.referrerPolicy };
          return reply.code(result.status).headers(headers).send(result.html);
        }
        return dapp.sendPage(reply, result.html, result.status);
      },
    );
  };
}
