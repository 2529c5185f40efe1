import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../src/storage/openStore";
import { buildMcpApp, connectInMemory, depsOf, openMcpStore } from "../helpers/mcp/fixture";

/**
 * The contract clients rely on, pinned: for every operation of the OpenAPI document (`GET /api/v1/openapi.json`) and
 * every tool of `tools/list`, the member names, the required sets and the JSON types (null included) of each schema,
 * ignoring descriptions, titles, ranges, patterns, closedness and how a union or a constant is spelled. The fixture
 * was recorded before the REST and MCP schemas were derived from one declaration. An operation or a tool added later
 * passes (clients do not rely on it yet); regenerate the fixture to pin it, and only for a deliberate change of the API: `UPDATE_SCHEMA_CONTRACT=1 npm run test:one -- test/mcp/schemaContract.test.ts`.
 */
const FIXTURE = join(__dirname, "..", "fixtures", "schema-contract.json");

type Schema = Record<string, unknown>;
type Contract = Record<string, unknown>;

/** The JSON type of a constant. */
const typeOfValue = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;

/** The contract of one JSON Schema (see the file's comment). */
export function contractOf(schema: Schema): Contract {
  if (typeof schema.$ref === "string") return { ref: schema.$ref };
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants !== undefined) return unionOf([...variants.map(contractOf), ...(schema.nullable ? [nullType] : [])]);
  const constants = schema.const !== undefined ? [schema.const] : (schema.enum as unknown[] | undefined);
  if (constants !== undefined) return { types: [...new Set(constants.map(typeOfValue))].sort() };
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]) as string[];
  const nullable = schema.nullable === true ? ["null"] : [];
  if (types.includes("object") || schema.properties !== undefined) {
    const patterns = schema.patternProperties as Record<string, Schema> | undefined;
    const extra = schema.additionalProperties;
    if (patterns !== undefined) return { record: contractOf(Object.values(patterns)[0]) };
    if (schema.properties === undefined && typeof extra === "object" && extra !== null) {
      return { record: contractOf(extra as Schema) };
    }
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const members = Object.keys(properties)
      .sort()
      .map((key) => [key, contractOf(properties[key])]);
    const object = { object: Object.fromEntries(members), required: [...((schema.required as string[]) ?? [])].sort() };
    return nullable.length > 0 ? unionOf([object, nullType]) : object;
  }
  if (types.includes("array")) {
    const array = { array: contractOf((schema.items ?? {}) as Schema) };
    return nullable.length > 0 ? unionOf([array, nullType]) : array;
  }
  return types.length > 0 ? { types: [...new Set([...types, ...nullable])].sort() } : { any: true };
}

const nullType = { types: ["null"] };

/** A union, flattened: primitive types merged into one sorted list, the other members kept in order. */
function unionOf(members: Contract[]): Contract {
  const flat = members.flatMap((member) => (Array.isArray(member.anyOf) ? (member.anyOf as Contract[]) : [member]));
  const types = flat.flatMap((member) => (Array.isArray(member.types) ? (member.types as string[]) : []));
  const rest = flat.filter((member) => !Array.isArray(member.types));
  const merged = [...rest, ...(types.length > 0 ? [{ types: [...new Set(types)].sort() }] : [])];
  return merged.length === 1 ? merged[0] : { anyOf: merged };
}

type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

/** Every operation's parameters, request body and responses (JSON bodies), by `METHOD path`. */
function openApiContract(doc: { paths: Record<string, Record<string, Operation>> }): Record<string, Contract> {
  const operations: Record<string, Contract> = {};
  for (const path of Object.keys(doc.paths).sort()) {
    for (const method of Object.keys(doc.paths[path]).sort()) {
      const operation = doc.paths[path][method];
      const body = operation.requestBody?.content["application/json"]?.schema;
      operations[`${method.toUpperCase()} ${path}`] = {
        parameters: (operation.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: contractOf(p.schema),
        })),
        ...(body === undefined ? {} : { requestBody: contractOf(body) }),
        responses: Object.fromEntries(
          Object.entries(operation.responses).map(([status, response]) => {
            const schema = response.content?.["application/json"]?.schema;
            return [status, schema === undefined ? null : contractOf(schema)];
          }),
        ),
      };
    }
  }
  return operations;
}

describe("the API's schema contract (OpenAPI document and MCP tools/list), pinned", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let actual: { openapi: Record<string, Contract>; components: Record<string, Contract>; tools: Contract };

  before(async function () {
    ({ store, cleanup } = await openMcpStore());
    app = await buildMcpApp(store);
    const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    const { client, close } = await connectInMemory(await depsOf(app));
    const { tools } = await client.listTools();
    await close();
    actual = {
      openapi: openApiContract(doc),
      components: Object.fromEntries(
        Object.entries(doc.components.schemas as Record<string, Schema>).map(([name, s]) => [name, contractOf(s)]),
      ),
      tools: Object.fromEntries(
        tools.map((tool) => [
          tool.name,
          { input: contractOf(tool.inputSchema), output: contractOf(tool.outputSchema as Schema) },
        ]),
      ),
    };
    if (process.env.UPDATE_SCHEMA_CONTRACT === "1") writeFileSync(FIXTURE, `${JSON.stringify(actual, null, 2)}\n`);
  });

  after(async function () {
    await app?.close();
    await cleanup?.();
  });

  const expected = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as typeof actual;

  // A client relies on what was there: every pinned operation and tool stays, unchanged; new ones may be added.
  it("the OpenAPI document keeps every pinned operation, each with the same parameters and body members", function () {
    expect(Object.keys(actual.openapi)).to.include.members(Object.keys(expected().openapi));
    for (const [operation, contract] of Object.entries(expected().openapi)) {
      expect(actual.openapi[operation], operation).to.deep.equal(contract);
    }
    expect(actual.components).to.deep.equal(expected().components);
  });

  it("tools/list keeps every pinned tool, each with the same input and output members", function () {
    expect(Object.keys(actual.tools)).to.include.members(Object.keys(expected().tools));
    for (const [tool, contract] of Object.entries(expected().tools)) {
      expect((actual.tools as Record<string, Contract>)[tool], tool).to.deep.equal(contract);
    }
  });
});
