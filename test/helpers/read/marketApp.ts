import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { TSchema } from "@sinclair/typebox";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../../src/config/loadConfig";
import { ErrorSchema } from "../../../src/service/schemas/error";
import { createServer } from "../../../src/service/server";
import type { Store } from "../../../src/storage/openStore";
import { TEST_ATTESTER, openTempStore } from "../service/app";
import { MARKET_NOW, seedMarket } from "./seedMarket";

/** A market-seeded app for one suite (real SQLite, the app's real plugins, the fixture's clock). */
export type MarketApp = {
  store: Store;
  app: FastifyInstance;
  get: (url: string) => ReturnType<FastifyInstance["inject"]>;
};

/** Builds the real app over `store` on the market fixture's clock. */
export async function buildMarketApp(store: Store, env: Record<string, string> = {}): Promise<FastifyInstance> {
  return createServer({
    store,
    config: loadConfig({ env: { LOG_LEVEL: "silent", ...env } }),
    attester: { address: TEST_ATTESTER, registry: null },
    now: () => MARKET_NOW,
  });
}

/**
 * Registers `before`/`after` hooks: a temp SQLite store, seeded with the market fixture unless `seeded` is false,
 * and the real app over it. Call it inside a `describe`.
 */
export function useMarketApp(options: { seeded?: boolean; env?: Record<string, string> } = {}): MarketApp {
  let cleanup: () => Promise<void> = async () => undefined;
  const handle = { get: (url: string) => handle.app.inject({ method: "GET", url }) } as MarketApp;
  before(async function () {
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    handle.store = temp.store;
    if (options.seeded !== false) await seedMarket(temp.store);
    handle.app = await buildMarketApp(temp.store, options.env);
  });
  after(async function () {
    await handle.app?.close();
    await cleanup();
  });
  return handle;
}

const ajv = new AjvJsonSchemaValidator();

/**
 * Asserts that `body` matches the route's response schema (the handlers send pre-serialized JSON), as JSON Schema: a
 * read resource's is derived from its zod shape (`src/read/schemas`), the others are TypeBox.
 */
export function expectSchema(schema: TSchema, body: unknown): void {
  const { errorMessage } = ajv.getValidator(schema)(body);
  expect(errorMessage, "response matches its schema").to.equal(undefined);
}

/** Asserts an error response: its status, its stable code, the error shape, and optionally the field. */
export function expectError(
  res: { statusCode: number; json: () => unknown },
  status: number,
  code: string,
  field?: string,
): void {
  expect(res.statusCode, JSON.stringify(res.json())).to.equal(status);
  const body = res.json() as { error: { code: string; field?: string } };
  expectSchema(ErrorSchema, body);
  expect(body.error.code).to.equal(code);
  if (field !== undefined) expect(body.error.field).to.equal(field);
}
