import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../src/storage/openStore";
import { buildMcpApp, connectInMemory, depsOf, openMcpStore } from "../helpers/mcp/fixture";

/** Words of the MCP protocol a description may name that are not fields of the tool's payload. */
const PROTOCOL_WORDS = new Set(["structuredContent", "isError"]);

/** Every property name (and enum value) declared anywhere in a JSON Schema. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) propertyNames(item, into);
  else if (schema !== null && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && value !== null && typeof value === "object") {
        for (const name of Object.keys(value)) into.add(name);
      }
      if (key === "enum" && Array.isArray(value)) for (const item of value) into.add(String(item));
      propertyNames(value, into);
    }
  }
  return into;
}

describe("MCP tool descriptions name the fields their payloads have", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let client: Client;
  let close: () => Promise<void>;
  let tools: Tool[];

  before(async function () {
    ({ store, cleanup } = await openMcpStore());
    app = await buildMcpApp(store);
    ({ client, close } = await connectInMemory(await depsOf(app, () => undefined)));
    tools = (await client.listTools()).tools;
  });

  after(async function () {
    await close?.();
    await app?.close();
    await cleanup?.();
  });

  it("every camelCase name in a tool's description is a field of its input or output", function () {
    const wrong: string[] = [];
    for (const tool of tools) {
      const known = propertyNames([tool.inputSchema, tool.outputSchema]);
      // Placeholders such as eip155:<chainId>:<address> name a part of a value, not a field.
      const text = (tool.description ?? "").replace(/<[^>]*>/g, "");
      const named = new Set(text.match(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g) ?? []);
      for (const name of named) if (!known.has(name) && !PROTOCOL_WORDS.has(name)) wrong.push(`${tool.name}: ${name}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it("every top-level field of a tool's output is named in its description, or the description points to the route", function () {
    const unnamed: string[] = [];
    for (const tool of tools) {
      const description = tool.description ?? "";
      const top = Object.keys((tool.outputSchema as { properties?: Record<string, unknown> }).properties ?? {});
      for (const field of top) {
        if (!new RegExp(`\\b${field}\\b`).test(description)) {
          unnamed.push(`${tool.name}: ${field}`);
        }
      }
    }
    expect(unnamed).to.deep.equal([]);
  });
});
