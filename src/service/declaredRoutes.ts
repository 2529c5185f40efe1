import type { FastifyPluginAsync } from "fastify";
import { Type, type TSchema } from "@sinclair/typebox";
import { parsePoolId } from "../lib/parsePoolId";
import {
  declaredSurface,
  surfaceCacheKey,
  type AnyDeclaredSurface,
  type SurfaceParameter,
} from "../read/defineSurface";
import { READ_SURFACES } from "../read/surfaces";
import { errorResponses } from "./schemas/error";
import { fromZod } from "./schemas/fromZod";
import { PoolParamsSchema } from "./schemas/pool";
import { sendJson } from "./sendJson";

/** The table's surfaces whose reader declares them (`surface` export): their routes are registered here. */
const DECLARED = READ_SURFACES.flatMap((entry) => {
  const surface = declaredSurface(entry);
  return surface === null ? [] : [{ entry, surface }];
});

const responseSchemas = new Map<AnyDeclaredSurface, TSchema>();

/** A declared surface's REST response schema: its shape (`output`) as JSON Schema, built once. */
export function declaredResponseSchema(surface: AnyDeclaredSurface): TSchema {
  let schema = responseSchemas.get(surface);
  if (schema === undefined) {
    responseSchemas.set(surface, (schema = fromZod(surface.output, { title: surface.outputTitle })));
  }
  return schema;
}

/** The query schema of a query parameter (a pool is a path parameter: {@link PoolParamsSchema}). */
function querySchema(parameter: Exclude<SurfaceParameter, { kind: "pool" }>): TSchema {
  if (parameter.kind === "integer") return Type.Integer(parameter.integer);
  return Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" }));
}

/** A declared surface's route schema: OpenAPI texts, path and query parameters, response. */
function routeSchema(surface: AnyDeclaredSurface) {
  const parameters = Object.entries(surface.parameters as Record<string, SurfaceParameter>);
  const query = Object.fromEntries(
    parameters.flatMap(([name, parameter]) => (parameter.kind === "pool" ? [] : [[name, querySchema(parameter)]])),
  );
  return {
    summary: surface.title,
    description: surface.description,
    tags: [...surface.tags],
    ...(parameters.some(([, parameter]) => parameter.kind === "pool") ? { params: PoolParamsSchema } : {}),
    ...(Object.keys(query).length > 0 ? { querystring: Type.Object(query) } : {}),
    response: { 200: declaredResponseSchema(surface), ...errorResponses(...surface.errors) },
  };
}

/**
 * The REST routes of the declared read surfaces (`src/read/defineSurface.ts`): for each, its method and path from the
 * table, its OpenAPI texts, parameters and response schema from the declaration, answering the reader's JSON through
 * the response cache, as a hand-written route does. A malformed pool id is rejected before the cache (its 400 quotes
 * the caller's own spelling; the cache key is case-folded). Errors go to the app's one error handler.
 */
const declaredRoutes: FastifyPluginAsync = async (fastify) => {
  const { readContext, responseCache } = fastify;
  for (const { entry, surface } of DECLARED) {
    const parameters = Object.entries(surface.parameters as Record<string, SurfaceParameter>);
    fastify.route({
      method: entry.route.method,
      url: entry.route.path,
      schema: routeSchema(surface),
      handler: async (request, reply) => {
        const path = request.params as Record<string, string>;
        const query = request.query as Record<string, string | number | undefined>;
        const input: Record<string, string | number | null | undefined> = {};
        for (const [name, parameter] of parameters) {
          if (parameter.kind === "pool") {
            input[name] = path[name];
            parsePoolId({ id: path[name] });
          } else if (parameter.kind === "integer") input[name] = query[name];
          else input[name] = query[name] ?? null;
        }
        const key = surfaceCacheKey(surface, input);
        return sendJson(reply, await responseCache.json(key, () => surface.read(readContext, input)));
      },
    });
  }
};

export default declaredRoutes;
