import { createHash } from "node:crypto";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { FAVICON_PATH, faviconIco, faviconSvg } from "../../../web/favicon";

/** How long a browser keeps the icon (a week: its URL carries no hash, so not a year like the bundle). */
export const FAVICON_CACHE_CONTROL = "public, max-age=604800";

/** The folder's routes sit at the root (`/favicon.svg`, `/favicon.ico`), not under `/favicon`. */
export const prefixOverride = "";

/**
 * The site's icon (`src/web/favicon.ts`): `GET /favicon.svg`, which every page links, and `GET /favicon.ico`, which
 * browsers ask for by themselves. Both are open, cached for a week, with a strong `ETag` (304 on `If-None-Match`).
 */
const plugin: FastifyPluginAsync = async (fastify) => {
  const files = [
    { path: FAVICON_PATH, type: "image/svg+xml", body: Buffer.from(faviconSvg(), "utf8") },
    { path: "/favicon.ico", type: "image/x-icon", body: Buffer.from(faviconIco()) },
  ];
  for (const file of files) {
    const etag = `"${createHash("sha256").update(file.body).digest("hex").slice(0, 16)}"`;
    fastify.get(
      file.path,
      { schema: { hide: true } },
      async function favicon(request: FastifyRequest, reply: FastifyReply) {
        reply.headers({ "content-type": file.type, "cache-control": FAVICON_CACHE_CONTROL, etag });
        if (request.headers["if-none-match"] === etag) return reply.code(304).send();
        return reply.send(file.body);
      },
    );
  }
};

export default plugin;
