import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../../src/config/loadConfig";
import { createMcpServer } from "../../../src/mcp/createMcpServer";
import type { McpDeps } from "../../../src/mcp/deps";
import { createServer } from "../../../src/service/server";
import type { Store } from "../../../src/storage/openStore";
import { MARKET_NOW, seedMarket } from "../read/seedMarket";
import { TEST_ATTESTER, TEST_KEY, TEST_REGISTRY, openTempStore, seed } from "../service/app";

/** The fixture's clock: the market fixture's (2026-01-15T12:00:00Z, a day in progress). */
export const MCP_NOW = MARKET_NOW;

/**
 * A store in a temp DATA_DIR, as `npm start` leaves one: `service.sqlite` seeded with both fixtures (the market
 * fixture, and the service fixture's pools and attestations, one with a v2 block and one bare address on two chains),
 * and `attester.key` holding the test attester's key.
 */
export async function openMcpStore(): Promise<{ store: Store; dir: string; cleanup: () => Promise<void> }> {
  const temp = await openTempStore();
  await seedMarket(temp.store);
  await seed(temp.store);
  writeFileSync(join(temp.dir, "attester.key"), `${TEST_KEY}\n`, { mode: 0o600 });
  return temp;
}

/** The real app over `store` (same options as production), on `now` (default: the fixture's clock). */
export async function buildMcpApp(
  store: Store,
  { env = {}, now = () => MCP_NOW }: { env?: Record<string, string>; now?: () => number } = {},
): Promise<FastifyInstance> {
  return createServer({
    store,
    config: loadConfig({ env: { LOG_LEVEL: "silent", ...env } }),
    attester: { address: TEST_ATTESTER, registry: TEST_REGISTRY },
    now,
  });
}

/** What the app's routes use, handed to the MCP server (the HTTP route builds the same from the app's decorators). */
export async function depsOf(app: FastifyInstance, onInternalError?: McpDeps["onInternalError"]): Promise<McpDeps> {
  return { readContext: app.readContext, attester: await app.attester(), onInternalError };
}

/** An SDK `Client` connected to a new MCP server over an in-memory transport pair. */
export async function connectInMemory(deps: McpDeps): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(deps);
  await server.connect(serverTransport);
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result's one text item. */
export function textOf(result: CallToolResult): string {
  expect(result.content, "one content item").to.have.length(1);
  const item = result.content[0];
  expect(item.type).to.equal("text");
  return (item as { text: string }).text;
}

/** Asserts a success: no isError, structuredContent present, and the text is the same JSON. Returns the body. */
export function expectSuccess(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, textOf(result)).to.equal(false);
  expect(result.structuredContent, "structuredContent").to.be.an("object");
  expect(JSON.parse(textOf(result))).to.deep.equal(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** Asserts an error result with the API's error body: `{"error":{"code","message",…}}`, no structuredContent. */
export function expectToolError(result: CallToolResult, code: string, field?: string): Record<string, unknown> {
  expect(result.isError, textOf(result)).to.equal(true);
  expect(result.structuredContent).to.equal(undefined);
  const body = JSON.parse(textOf(result)) as { error: Record<string, unknown> };
  expect(Object.keys(body)).to.deep.equal(["error"]);
  expect(body.error.code, textOf(result)).to.equal(code);
  expect(body.error.message).to.be.a("string").and.not.equal("");
  if (field !== undefined) expect(body.error.field).to.equal(field);
  return body.error;
}
