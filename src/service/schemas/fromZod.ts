import { Type, type TUnsafe } from "@sinclair/typebox";
import * as z from "zod/v4";

/**
 * A route's response schema derived from the shape its reader answers, declared once in zod (`src/read/schemas`): the
 * shape's JSON Schema as the MCP SDK derives a tool's output schema from it (draft-07, output types), so that the
 * OpenAPI document and `tools/list` describe the same JSON. It is wrapped as TypeBox's `Unsafe`, so the route's type
 * provider types the reply from the shape and @fastify/swagger, Fastify's serializer and Ajv read it as plain JSON
 * Schema. `title` names the schema in the OpenAPI document.
 */
export function fromZod<T extends z.ZodType>(shape: T, options: { title?: string } = {}): TUnsafe<z.output<T>> {
  const json = z.toJSONSchema(shape, { target: "draft-7", io: "output", override: dropStringPropertyNames });
  delete json.$schema;
  return Type.Unsafe<z.output<T>>({ ...json, ...options });
}

/**
 * A record's `propertyNames: {type: "string"}` says nothing JSON does not (every key is a string) and OpenAPI 3.0
 * has no such keyword: left out, the record reads as `additionalProperties` alone, as TypeBox wrote it.
 */
function dropStringPropertyNames({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  const names = jsonSchema.propertyNames as Record<string, unknown> | undefined;
  if (names !== undefined && names.type === "string" && Object.keys(names).length === 1)
    delete jsonSchema.propertyNames;
}
