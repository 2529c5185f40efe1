import type * as z from "zod/v4";
import type { ReadContext } from "./context";
import type { ReadSurface } from "./surfaces";

/**
 * A read surface declared once: what its REST route, its MCP tool and its OpenAPI entry say and answer, beside its
 * reader. The service registers the route (`src/service/declaredRoutes.ts`) and the MCP server the tool
 * (`src/mcp/createMcpServer.ts`) from this declaration alone: neither has a file of its own for the surface. A reader
 * declares itself by exporting `surface` (see {@link declaredSurface}); the table entry in `./surfaces.ts` gives the
 * route's path, the tool's name and the page. Surfaces without parameters only, for now: the others keep their route
 * folder and tool file.
 */
export interface DeclaredSurface<Output extends z.ZodType = z.ZodType> {
  /** One line: the tool's title and the route's OpenAPI summary. */
  title: string;
  /** A few words: the tool's annotation title. */
  label: string;
  /** What the answer holds and how to use it: the tool's description and the route's OpenAPI description. */
  description: string;
  /** The OpenAPI tags. */
  tags: readonly string[];
  /** The answer's shape (`./schemas`): the tool's output schema, and the route's response schema through `fromZod`. */
  output: Output;
  /** The JSON Schema title of the answer in the OpenAPI document. */
  outputTitle: string;
  /** The route's error statuses (besides 200) in its OpenAPI entry. */
  errors: readonly number[];
  /** The route's response cache key: the answer depends on nothing but the store and the clock. */
  cacheKey: string;
  /** The reader call. */
  read(context: ReadContext): Promise<z.output<Output>>;
}

/** Declares a surface (an identity that checks the reader's answer against the shape). */
export function defineSurface<Output extends z.ZodType>(surface: DeclaredSurface<Output>): DeclaredSurface<Output> {
  return surface;
}

/**
 * The declaration a table entry's reader exports as `surface`, or null when its route and tool are written by hand.
 * The reader's module is loaded by its path in the table (`read/getAccuracy` → `src/read/getAccuracy`).
 */
export function declaredSurface(entry: Pick<ReadSurface, "reader">): DeclaredSurface | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the reader's file, named in the table
  const module = require(`../${entry.reader}`) as { surface?: DeclaredSurface };
  return module.surface ?? null;
}

/** The OpenAPI spelling of a Fastify path: `/api/v1/pool/:pool` → `/api/v1/pool/{pool}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}
