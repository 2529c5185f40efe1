/**
 * The shape of a JSON Schema, for comparing two schemas written in different tools (the REST routes' TypeBox, the
 * MCP tools' zod): which members each object has, which are required, what the arrays hold, which constants a field
 * may take, and the primitive types, ignoring descriptions, ranges, patterns and how unions are spelled.
 */
export type Shape =
  | { object: Record<string, Shape>; required: string[] }
  | { record: Shape }
  | { array: Shape }
  | { consts: unknown[] }
  | { types: string[] }
  | { any: true }
  | { union: Shape[] };

type Schema = Record<string, unknown>;

/** Normalizes `schema` to its {@link Shape}. */
export function shapeOf(schema: Schema): Shape {
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants !== undefined) return unionOf(variants.map(shapeOf));
  if (schema.const !== undefined) return { consts: [schema.const] };
  if (Array.isArray(schema.enum)) return { consts: [...schema.enum].sort() };
  const type = schema.type;
  if (Array.isArray(type)) return unionOf(type.map((t) => shapeOf({ ...schema, type: t })));
  if (type === "object" || schema.properties !== undefined) {
    const patterns = schema.patternProperties as Record<string, Schema> | undefined;
    if (patterns !== undefined) return { record: shapeOf(Object.values(patterns)[0]) };
    const extra = schema.additionalProperties;
    if (schema.properties === undefined && typeof extra === "object" && extra !== null) {
      return { record: shapeOf(extra as Schema) };
    }
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    return {
      object: Object.fromEntries(
        Object.keys(properties)
          .sort()
          .map((key) => [key, shapeOf(properties[key])]),
      ),
      required: [...((schema.required as string[] | undefined) ?? [])].sort(),
    };
  }
  if (type === "array") return { array: shapeOf(schema.items as Schema) };
  if (typeof type === "string") return { types: [type] };
  return { any: true };
}

/** A union, flattened: constants merged into one set, primitive types into one list, the rest kept in order. */
function unionOf(members: Shape[]): Shape {
  const flat = members.flatMap((member) => ("union" in member ? member.union : [member]));
  const consts = flat.flatMap((member) => ("consts" in member ? member.consts : []));
  const types = flat.flatMap((member) => ("types" in member ? member.types : []));
  const rest = flat.filter((member) => !("consts" in member) && !("types" in member));
  const merged: Shape[] = [
    ...(consts.length > 0 ? [{ consts: [...new Set(consts)].sort() }] : []),
    ...(types.length > 0 ? [{ types: [...new Set(types)].sort() }] : []),
    ...rest,
  ];
  return merged.length === 1 ? merged[0] : { union: merged };
}

/**
 * Where `declared` does not describe the same JSON as `reference` (paths, empty when it does): the same members,
 * required alike, the same element shapes and primitive types. `declared` may narrow a string to a set of string
 * constants (the reader's type names them where the route's schema says "string"); nothing else may differ.
 */
export function shapeMismatches(declared: Shape, reference: Shape, path = "$"): string[] {
  const same = JSON.stringify(declared) === JSON.stringify(reference);
  if (same) return [];
  if ("consts" in declared && "types" in reference) {
    const strings = declared.consts.every((value) => typeof value === "string");
    return strings && reference.types.length === 1 && reference.types[0] === "string" ? [] : [path];
  }
  if ("object" in declared && "object" in reference) {
    const keys = [...new Set([...Object.keys(declared.object), ...Object.keys(reference.object)])].sort();
    const mismatches = keys.flatMap((key) =>
      key in declared.object && key in reference.object
        ? shapeMismatches(declared.object[key], reference.object[key], `${path}.${key}`)
        : [`${path}.${key} (only in ${key in declared.object ? "the declared" : "the reference"} schema)`],
    );
    const required = JSON.stringify(declared.required) === JSON.stringify(reference.required);
    return required ? mismatches : [...mismatches, `${path} (required members differ)`];
  }
  if ("array" in declared && "array" in reference) return shapeMismatches(declared.array, reference.array, `${path}[]`);
  if ("record" in declared && "record" in reference)
    return shapeMismatches(declared.record, reference.record, `${path}{}`);
  if ("union" in declared && "union" in reference && declared.union.length === reference.union.length) {
    return declared.union.flatMap((member, i) => shapeMismatches(member, reference.union[i], `${path}|${i}`));
  }
  return [path];
}
