import type { FastifyPluginAsync } from "fastify";
import type { TSchema } from "@sinclair/typebox";
import { declaredSurface, type DeclaredSurface } from "../read/defineSurface";
import { READ_SURFACES } from "../read/surfaces";
import { errorResponses } from "./schemas/error";
import { fromZod } from "./schemas/fromZod";
import { sendJson } from "./sendJson";

/** The table's surfaces whose reader declares them (`surface` export): their routes are registered here. */
const DECLARED = READ_SURFACES.flatMap((entry) => {
  const surface = declaredSurface(entry);
  return surface === null ? [] : [{ entry, surface }];
});

const responseSchemas = new Map<DeclaredSurface, TSchema>();

/** A declared surface's REST response schema: its shape (`output`) as JSON Schema, built once. */
export function declaredResponseSchema(surface: DeclaredSurface): TSchema {
  let schema = responseSchemas.get(surface);
  if (schema === undefined)
    responseSchemas.set(surface, (schema = fromZod(surface.output, { title: surface.outputTitle })));
  return schema;
}

/**
 * The REST routes of the declared read surfaces (`src/read/defineSurface.ts`): for each, `GET <path>` with its OpenAPI
 * summary, description, tags and response schema from the declaration, answering the reader's JSON through the
 * response cache, as a hand-written route does. Errors go to the app's one error handler.
 */
const declaredRoutes: FastifyPluginAsync = async (fastify) => {
  const { readContext, responseCache } = fastify;
  for (const { entry, surface } of DECLARED) {
    fastify.route({
      method: entry.route.method,
      url: entry.route.path,
      schema: {
        summary: surface.title,
        description: surface.description,
        tags: [...surface.tags],
        response: { 200: declaredResponseSchema(surface), ...errorResponses(...surface.errors) },
      },
      handler: async (_request, reply) =>
        sendJson(reply, await responseCache.json(surface.cacheKey, () => surface.read(readContext))),
    });
  }
};

export default declaredRoutes;
