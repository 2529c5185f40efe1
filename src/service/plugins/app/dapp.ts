import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { loadDappAssets, type DappAssets } from "../../../web/assets";
import { PAGE_HEADERS } from "../../../web/headers";
import type { PageChrome } from "../../../web/layout";
import { renderErrorPage } from "../../../web/pages/error";
import { toErrorBody } from "../../errorBodies";

declare module "fastify" {
  interface FastifyInstance {
    /** The dapp's pages: the loaded client bundle and the helpers every page route uses. */
    dapp: Dapp;
  }
}

/** What the page routes under `routes/app/` share. */
export type Dapp = {
  assets: DappAssets;
  /** The header, navigation and bundle URLs of a page for this request (the signed-in wallet, if any). */
  chrome(request: FastifyRequest): PageChrome;
  /** Sends a rendered page with the page headers (CSP, no caching). */
  sendPage(reply: FastifyReply, page: string, status?: number): FastifyReply;
  /**
   * The error handler of the page routes: an HTML page with the error's status and one-line message. A function
   * property, not a method: the page routes pass it to `setErrorHandler` on its own (it uses no `this`).
   */
  pageErrorHandler: (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => FastifyReply;
};

export type DappOptions = {
  /** Where the built bundle is (default `dist/dapp`, written by `npm run build`). */
  dir?: string;
};

/**
 * Loads the dapp's client bundle (from the TypeScript sources, building it in memory when `npm run build` has not been run, with one log
 * line saying so) and decorates `fastify.dapp`. The page routes live in `routes/app/`; the session they require comes
 * from the session plugin (`request.session`).
 */
export default fp(
  async function dappPlugin(fastify: FastifyInstance, options: DappOptions) {
    const assets = await loadDappAssets({ dir: options.dir, onBuild: (line) => fastify.log.warn(line) });
    const chrome = (request: FastifyRequest): PageChrome => {
      const session = request.session;
      return {
        assets: assets.urls,
        session: session === null ? null : { address: session.address, chainId: session.chainId },
      };
    };
    const sendPage = (reply: FastifyReply, page: string, status = 200): FastifyReply =>
      reply.code(status).headers(PAGE_HEADERS).send(page);
    fastify.decorate("dapp", {
      assets,
      chrome,
      sendPage,
      pageErrorHandler(error, request, reply) {
        const { status, body, headers } = toErrorBody(error);
        if (status >= 500) request.log.error({ err: error }, "page failed");
        // The rate limiter's 429 and every 4xx keep their one-line message; a 5xx never shows internals.
        return sendPage(
          reply.headers(headers),
          renderErrorPage({ status, code: body.code, message: body.message }, chrome(request)),
          status,
        );
      },
    } satisfies Dapp);
  },
  { name: "dapp", dependencies: ["session"] },
);
