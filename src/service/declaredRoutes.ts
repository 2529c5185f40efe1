import type { FastifyPluginAsync } from "fastify";
import { Type, type TSchema } from "@sinclair/typebox";
import { MAX_COMPARED_POOLS } from "../errors/market";
import { parsePoolId } from "@attestation-registry/sdk";
import {
  declaredSurface,
  describeSurface,
  surfaceCacheKey,
  type AnyDeclaredSurface,
  type SurfaceFacts,
  type SurfaceParameter,
} from "../read/defineSurface";
import { checkPoolList } from "../read/internal/checkPoolList";
import { splitList } from "../read/splitList";
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
    const options = surface.outputTitle === undefined ? {} : { title: surface.outputTitle };
    responseSchemas.set(surface, (schema = fromZod(surface.output, options)));
  }
  return schema;
}

/** The query schema of a query parameter (a pool is a path parameter: {@link PoolParamsSchema}). */
function querySchema(parameter: Exclude<SurfaceParameter, { kind: "pool" }>): TSchema {
  switch (parameter.kind) {
    case "integer":
      // Without a default, absent stays absent (the reader's undefined); with one, Fastify fills it in.
      return parameter.integer.default === undefined
        ? Type.Optional(Type.Integer(parameter.integer))
        : Type.Integer(parameter.integer);
    case "cursor":
      return Type.Optional(Type.String({ maxLength: 100, description: "the `next` of the previous page, unchanged" }));
    case "pools":
      return Type.String({
        minLength: 1,
        maxLength: 1000,
        description: `1 to ${MAX_COMPARED_POOLS} distinct pool ids separated by commas, any of the three id shapes`,
      });
    case "names":
      return Type.Optional(
        Type.String({
          maxLength: 1000,
          description: `only these ${parameter.noun}, comma-separated, each one of: ${parameter.values.join(", ")}. An unknown one is 400 INVALID_PARAMETER, naming it.`,
        }),
      );
  }
}

/** A declared parameter's value from the request (a list split; a pool, or a list of pools, checked first). */
function routeValue(
  name: string,
  parameter: SurfaceParameter,
  path: Record<string, string>,
  query: Record<string, string | number | undefined>,
): string | number | string[] | null | undefined {
  switch (parameter.kind) {
    case "pool":
      // A malformed id is rejected before the cache: its message quotes the caller's own spelling, and the cache key
      // is case-folded, so a cached 400 would echo another caller's id.
      parsePoolId({ id: path[name] });
      return path[name];
    case "integer":
      return query[name];
    case "cursor":
      return query[name] ?? null;
    case "pools": {
      const ids = splitList(query[name] as string | undefined);
      // Checked before the cache too, for the same reason.
      checkPoolList(ids, name);
      return ids;
    }
    case "names":
      return splitList(query[name] as string | undefined);
  }
}

/** A declared surface's route schema: OpenAPI texts, path and query parameters, response. */
function routeSchema(surface: AnyDeclaredSurface, facts: SurfaceFacts) {
  const parameters = Object.entries(surface.parameters as Record<string, SurfaceParameter>);
  const query = Object.fromEntries(
    parameters.flatMap(([name, parameter]) => (parameter.kind === "pool" ? [] : [[name, querySchema(parameter)]])),
  );
  return {
    summary: surface.title,
    description: describeSurface(surface, facts),
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
      schema: routeSchema(surface, readContext),
      handler: async (request, reply) => {
        const path = request.params as Record<string, string>;
        const query = request.query as Record<string, string | number | undefined>;
        const input = Object.fromEntries(
          parameters.map(([name, parameter]) => [name, routeValue(name, parameter, path, query)]),
        );
        const key = surfaceCacheKey(surface, input);
        return sendJson(reply, await responseCache.json(key, () => surface.read(readContext, input)));
      },
    });
  }
};

export default declaredRoutes;
