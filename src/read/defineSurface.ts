import type * as z from "zod/v4";
import type { ReadContext } from "./context";
import type { IntegerParameter } from "./internal/checkInteger";
import type { ReadSurface } from "./surfaces";

/**
 * A parameter of a declared surface. The route reads it from its path (`pool`: the path's `:pool`) or its query
 * (the others); the tool takes it as an argument of the same name. Each kind has one route schema and one tool input
 * (`src/service/declaredRoutes.ts`, `src/mcp/createMcpServer.ts`); the reader checks the values either way and throws
 * the API's errors (INVALID_POOL_ID, INVALID_PARAMETER, INVALID_CURSOR…). A list is comma-separated in the query
 * (`?pools=a,b`) and an array or one comma-separated string in a tool's arguments, split by `splitList` either way.
 */
export type SurfaceParameter =
  /** A pool id in any shape the API takes; required. */
  | { kind: "pool" }
  /** An integer with its range and default (the reader's `checkParameter`); optional (no default: undefined). */
  | { kind: "integer"; integer: IntegerParameter }
  /** An optional opaque page cursor: the `next` of the previous page. */
  | { kind: "cursor" }
  /**
   * A list of 1 to `MAX_COMPARED_POOLS` distinct pool ids; required. Checked before the response cache
   * (`checkPoolList`: NO_POOLS, TOO_MANY_POOLS, REPEATED_POOL, INVALID_POOL_ID), as a single `pool` is.
   */
  | { kind: "pools" }
  /**
   * An optional filter: names, each one of `values` (none: no filter). `noun` says what they are ("event kinds");
   * the reader rejects a name not listed (INVALID_PARAMETER, naming it).
   */
  | { kind: "names"; noun: string; values: readonly string[] };

/**
 * The values a surface's reader call receives: a pool id as text, an integer or undefined, a cursor or null, a list
 * as its items.
 */
export type SurfaceInput<P extends Record<string, SurfaceParameter>> = {
  [K in keyof P]: P[K] extends { kind: "pool" }
    ? string
    : P[K] extends { kind: "integer" }
      ? number | undefined
      : P[K] extends { kind: "pools" | "names" }
        ? string[]
        : string | null;
};

/** What a surface's description may quote from the server it runs on (the freshness rule's window). */
export type SurfaceFacts = Pick<ReadContext, "freshnessWindowS">;

/**
 * A read surface declared once: what its REST route, its MCP tool and its OpenAPI entry say, take and answer, beside
 * its reader. The service registers the route (`src/service/declaredRoutes.ts`) and the MCP server the tool
 * (`src/mcp/createMcpServer.ts`) from this declaration alone: neither has a file of its own for the surface. A reader
 * declares itself by exporting `surface` (see {@link declaredSurface}); the table entry in `./surfaces.ts` gives the
 * route's method and path, the tool's name and the page.
 */
export interface DeclaredSurface<
  Output extends z.ZodType = z.ZodType,
  Parameters extends Record<string, SurfaceParameter> = Record<string, SurfaceParameter>,
  Answer = z.output<Output>,
> {
  /** One line: the tool's title and the route's OpenAPI summary. */
  title: string;
  /** A few words: the tool's annotation title. */
  label: string;
  /**
   * What the answer holds and how to use it: the tool's description and the route's OpenAPI description; a function
   * when it quotes the server's freshness window (`freshnessRule` of `./sentences`).
   */
  description: string | ((facts: SurfaceFacts) => string);
  /** The OpenAPI tags. */
  tags: readonly string[];
  /** The parameters, by name (none: an empty object). */
  parameters: Parameters;
  /** The answer's shape (`./schemas`): the tool's output schema, and the route's response schema through `fromZod`. */
  output: Output;
  /** The JSON Schema title of the answer in the OpenAPI document (none: the shape's JSON Schema as is). */
  outputTitle?: string;
  /** The route's error statuses (besides 200) in its OpenAPI entry. */
  errors: readonly number[];
  /**
   * The route's response cache key, before the parameters' values (joined with `:`, a pool id case-folded): the
   * answer depends on nothing but them, the store and the clock.
   */
  cacheKey: string;
  /** The reader call. */
  read(context: ReadContext, input: SurfaceInput<Parameters>): Promise<Answer>;
}

/**
 * Declares a surface: an identity whose types check the shape against the reader's answer (every value the shape
 * accepts is one the reader's type allows, as `satisfies z.ZodType<Answer>` does).
 */
export function defineSurface<
  Answer,
  Output extends z.ZodType<Answer>,
  Parameters extends Record<string, SurfaceParameter>,
>(surface: DeclaredSurface<Output, Parameters, Answer>): DeclaredSurface<Output, Parameters, Answer> {
  return surface;
}

/** A declared surface whatever its parameters, as the route and tool registrars take it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registrars build each input from `parameters`
export type AnyDeclaredSurface = DeclaredSurface<z.ZodType, any, unknown>;

/**
 * The declaration a table entry's reader exports as `surface`, or null when its route and tool are written by hand.
 * The reader's module is loaded by its path in the table (`read/getAccuracy` → `src/read/getAccuracy`).
 */
export function declaredSurface(entry: Pick<ReadSurface, "reader">): AnyDeclaredSurface | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the reader's file, named in the table
  const module = require(`../${entry.reader}`) as { surface?: AnyDeclaredSurface };
  return module.surface ?? null;
}

/** A surface's description on a server with these facts. */
export function describeSurface(surface: AnyDeclaredSurface, facts: SurfaceFacts): string {
  return typeof surface.description === "function" ? surface.description(facts) : surface.description;
}

/**
 * The response cache key of a call: the declaration's key, then each parameter's value (a pool id case-folded; a
 * list's items joined by `,`, pool ids case-folded).
 */
export function surfaceCacheKey(surface: AnyDeclaredSurface, input: Record<string, unknown>): string {
  const values = Object.entries(surface.parameters as Record<string, SurfaceParameter>).map(([name, parameter]) => {
    const value = input[name];
    if (parameter.kind === "pool") return String(value).toLowerCase();
    if (parameter.kind === "pools") return (value as string[]).map((id) => id.toLowerCase()).join(",");
    if (parameter.kind === "names") return (value as string[]).join(",");
    // An integer or a cursor: a number or a string, as the route's schema and the tool's arguments take them.
    return typeof value === "number" || typeof value === "string" ? String(value) : "";
  });
  return [surface.cacheKey, ...values].join(":");
}

/** The OpenAPI spelling of a Fastify path: `/api/v1/pool/:pool` → `/api/v1/pool/{pool}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}
