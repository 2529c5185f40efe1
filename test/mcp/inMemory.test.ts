import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { RESOURCE_URIS } from "../../src/mcp/resources";
import type { Store } from "../../src/storage/openStore";
import { TEST_ATTESTER, TEST_REGISTRY } from "../helpers/service/app";
import {
  ERROR_CASES,
  GET_CASES,
  REST_SCHEMAS,
  requiredArgs,
  TOOL_NAMES,
  WETH,
  type ToolName,
} from "../helpers/mcp/cases";
import {
  buildMcpApp,
  connectInMemory,
  depsOf,
  expectSuccess,
  expectToolError,
  openMcpStore,
  textOf,
} from "../helpers/mcp/fixture";

/** The first error case answering `code`. */
const byCode = (code: string) => ERROR_CASES.find((errorCase) => errorCase.code === code)!;

/** A test title's short rendering of a value. */
const short = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 70 ? `${text.slice(0, 67)}…` : text;
};

describe("MCP server over an in-memory transport (the SDK's Client, real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let client: Client;
  let close: () => Promise<void>;
  let tools: Map<string, Tool>;
  const internalErrors: { error: unknown; tool: string }[] = [];
  const ajv = new AjvJsonSchemaValidator();

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const get = (url: string) => app.inject({ method: "GET", url });
  const postVerify = (payload: string) =>
    app.inject({ method: "POST", url: "/api/v1/verify", payload, headers: { "content-type": "application/json" } });

  /** Asserts that a success body validates against the tool's declared output schema and the route's schema. */
  function expectSchemas(tool: ToolName, body: unknown): void {
    const declared = ajv.getValidator(tools.get(tool)!.outputSchema as object)(body);
    expect(declared.errorMessage, `${tool}: its declared output schema`).to.equal(undefined);
    const rest = ajv.getValidator(REST_SCHEMAS[tool])(body);
    expect(rest.errorMessage, `${tool}: its route's response schema`).to.equal(undefined);
  }

  before(async function () {
    ({ store, cleanup } = await openMcpStore());
    app = await buildMcpApp(store);
    ({ client, close } = await connectInMemory(
      await depsOf(app, (error, tool) => internalErrors.push({ error, tool })),
    ));
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  });

  after(async function () {
    await close?.();
    await app?.close();
    await cleanup?.();
  });

  describe("tools/list", function () {
    it("lists the table's tools, read-only and closed-world, each with a description, an input and an output schema", function () {
      expect([...tools.keys()]).to.deep.equal([...TOOL_NAMES]);
      for (const tool of tools.values()) {
        expect(tool.annotations, tool.name).to.include({ readOnlyHint: true, openWorldHint: false });
        expect(tool.inputSchema.type, tool.name).to.equal("object");
        expect(tool.outputSchema?.type, tool.name).to.equal("object");
        expect(tool.description, tool.name).to.match(/The same JSON as (GET|POST) \/api\/v1\//);
      }
      // The rules a model must read where they apply.
      for (const name of ["list_pools", "get_volume", "get_liquidity_map", "compare_pools"]) {
        expect(tools.get(name)!.description, name).to.include("Freshness: a value observed more than 3600 s ago");
      }
      for (const name of ["get_attestation", "verify_attestation", "get_attester"]) {
        expect(tools.get(name)!.description, name).to.include("attester address you pinned");
      }
    });

    it("declares as each output schema its route's response schema: one declaration, described as that route's JSON", function () {
      for (const name of TOOL_NAMES) {
        // zod's `propertyNames: {type: "string"}` of a record is left out of the REST schema (not in OpenAPI 3.0).
        const outputSchema = JSON.stringify(tools.get(name)!.outputSchema, (k, v) =>
          k === "propertyNames" ? undefined : v,
        );
        const declared = JSON.parse(outputSchema) as Record<string, unknown>;
        expect(declared.description, name).to.match(/^The same JSON as (GET|POST) \/api\/v1\/\S+ answers\.$/);
        const rest = JSON.parse(JSON.stringify(REST_SCHEMAS[name])) as Record<string, unknown>;
        // Only the envelope differs: the SDK's $schema and the tool's description; the OpenAPI document's title.
        for (const key of ["$schema", "description"]) delete declared[key];
        delete rest.title;
        expect(declared, name).to.deep.equal(rest);
      }
    });

    it("declares argument types and ranges for the model, with defaults as the API's", function () {
      const days = (tools.get("get_volume")!.inputSchema.properties as Record<string, Record<string, unknown>>).days;
      expect(days).to.include({ minimum: 1, maximum: 365, default: 30 });
      expect(days.type).to.deep.equal(["integer", "string"]);
      expect(tools.get("get_attestation")!.inputSchema.required).to.deep.equal(["pool"]);
      expect(tools.get("compare_pools")!.inputSchema.required).to.deep.equal(["pools"]);
    });
  });

  describe("every tool answers the JSON its route answers", function () {
    for (const { tool, args, url } of GET_CASES) {
      it(`${tool} ${short(args)} equals GET ${short(url)}`, async function () {
        const body = expectSuccess(await call(tool, args));
        expectSchemas(tool, body);
        const res = await get(url);
        expect(res.statusCode, res.body).to.equal(200);
        expect(body).to.deep.equal(res.json());
      });
    }

    it("get_activity's `next` pages like the API's cursor", async function () {
      const first = expectSuccess(await call("get_activity", { limit: 3 }));
      const second = expectSuccess(await call("get_activity", { limit: 3, cursor: first.next }));
      expect(second).to.deep.equal((await get(`/api/v1/activity?limit=3&cursor=${first.next}`)).json());
      const ids = [...(first.events as { id: number }[]), ...(second.events as { id: number }[])].map((e) => e.id);
      expect(new Set(ids).size).to.equal(6);
    });

    it("ignores arguments it does not take, as the routes ignore unknown query parameters", async function () {
      expect(expectSuccess(await call("get_attester", { verbose: true }))).to.deep.equal(
        (await get("/api/v1/attester")).json(),
      );
    });
  });

  describe("verify_attestation", function () {
    it("an attestation taken from get_attestation verifies with the library against the pinned attester", async function () {
      const attestation = expectSuccess(await call("get_attestation", { pool: WETH }));
      const library = verifyAttestation({ attestation: attestation as never, address: TEST_ATTESTER });
      expect(library).to.include({ valid: true, attester: TEST_ATTESTER });
      const body = expectSuccess(await call("verify_attestation", { attestation }));
      expectSchemas("verify_attestation", body);
      expect(body).to.include({ valid: true, attester: TEST_ATTESTER });
      expect(body).to.deep.equal(library);
      const res = await postVerify(JSON.stringify(attestation));
      expect(res.statusCode).to.equal(200);
      expect(body).to.deep.equal(res.json());
      // The v2 block is bound to the registry get_attester names.
      const attester = expectSuccess(await call("get_attester"));
      expect(attester.registry).to.deep.equal(TEST_REGISTRY);
      expect((attestation.eip712 as { domain: { verifyingContract: string } }).domain.verifyingContract).to.equal(
        TEST_REGISTRY.address,
      );
    });

    it("takes the attestation as its JSON text too", async function () {
      const text = textOf(await call("get_attestation", { pool: WETH }));
      const body = expectSuccess(await call("verify_attestation", { attestation: text }));
      expect(body).to.include({ valid: true, attester: TEST_ATTESTER });
    });

    it("a tampered attestation fails: valid false, the recovered signer is not the attester", async function () {
      const attestation = expectSuccess(await call("get_attestation", { pool: WETH }));
      for (const tampered of [
        { ...attestation, horizon: (attestation.horizon as number) + 60 },
        { ...attestation, confidence: 0.99 },
        { ...attestation, pool: "0x00000000000000000000000000000000000000aa" },
      ]) {
        const body = expectSuccess(await call("verify_attestation", { attestation: tampered }));
        expect(body.valid, JSON.stringify(tampered)).to.equal(false);
        expect(body.attester).to.not.equal(TEST_ATTESTER);
        expect(verifyAttestation({ attestation: tampered as never, address: TEST_ATTESTER }).valid).to.equal(false);
        expect(body).to.deep.equal((await postVerify(JSON.stringify(tampered))).json());
      }
      const badSignature = { ...attestation, signature: `0x${"11".repeat(65)}` };
      expect(expectSuccess(await call("verify_attestation", { attestation: badSignature }))).to.include({
        valid: false,
        attester: null,
      });
    });

    it("answers malformed attestation text with the codes and messages of POST /api/v1/verify", async function () {
      const attestation = expectSuccess(await call("get_attestation", { pool: WETH }));
      const text = JSON.stringify(attestation);
      for (const [payload, code, field] of [
        ["{not json", "INVALID_JSON", undefined],
        [text.replace('{"chainId":1,', '{"chainId":1,"chainId":2,'), "INVALID_JSON", "chainId"],
        [text.replace('{"chainId":1,', '{"chainId":1.0,'), "INVALID_ATTESTATION", "chainId"],
      ] as const) {
        const error = expectToolError(await call("verify_attestation", { attestation: payload }), code, field);
        const res = await postVerify(payload);
        expect(res.statusCode).to.equal(400);
        expect(error).to.deep.equal(res.json().error);
      }
      const { signature: _, ...unsigned } = attestation;
      expectToolError(await call("verify_attestation", { attestation: unsigned }), "INVALID_ATTESTATION", "signature");
    });
  });

  describe("bad input is an isError result carrying the API's code, never a protocol error", function () {
    for (const { tool, args, code, field, url } of ERROR_CASES) {
      it(`${tool} ${short(args)} → ${code}${url ? " (as the route)" : ""}`, async function () {
        const error = expectToolError(await call(tool, args), code, field);
        if (url !== undefined) {
          const res = await get(url);
          expect(res.statusCode).to.be.within(400, 499);
          expect(error).to.deep.equal(res.json().error);
        }
      });
    }

    it("names the candidates of an ambiguous address and the reason a pool has no attestation", async function () {
      const ambiguous = expectToolError(
        await call("get_attestation", { pool: byCode("AMBIGUOUS_POOL").args.pool }),
        "AMBIGUOUS_POOL",
      );
      expect(ambiguous.candidates).to.have.length(2);
      const none = expectToolError(
        await call("get_attestation", { pool: byCode("NO_ATTESTATION").args.pool }),
        "NO_ATTESTATION",
      );
      expect(none.reason).to.be.a("string").and.not.equal("");
    });
  });

  describe("an unexpected failure", function () {
    it("answers INTERNAL_ERROR without its detail, for every tool that reads the store, and reports it", async function () {
      const { store: broken, cleanup: drop } = await openMcpStore();
      const brokenApp = await buildMcpApp(broken);
      const seen: string[] = [];
      const session = await connectInMemory(await depsOf(brokenApp, (_error, tool) => seen.push(tool)));
      try {
        await broken.db.destroy();
        const reading = TOOL_NAMES.filter((name) => !["get_attester", "verify_attestation"].includes(name));
        for (const name of reading) {
          const args = requiredArgs(name);
          const error = expectToolError(
            (await session.client.callTool({ name, arguments: args })) as CallToolResult,
            "INTERNAL_ERROR",
          );
          expect(error.message).to.equal("Internal server error.");
        }
        expect(seen).to.deep.equal(reading);
      } finally {
        await session.close();
        await brokenApp.close();
        await drop().catch(() => undefined);
      }
      expect(internalErrors).to.deep.equal([]);
    });
  });

  describe("resources", function () {
    it("serves the attester (as GET /api/v1/attester) and the claim statement, read-only", async function () {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).to.deep.equal([RESOURCE_URIS.attester, RESOURCE_URIS.claim]);
      const attester = await client.readResource({ uri: RESOURCE_URIS.attester });
      expect(JSON.parse((attester.contents[0] as { text: string }).text)).to.deep.equal(
        (await get("/api/v1/attester")).json(),
      );
      const claim = ((await client.readResource({ uri: RESOURCE_URIS.claim })).contents[0] as { text: string }).text;
      expect(claim)
        .to.include("floor × depthAtIssuanceUsd")
        .and.include(TEST_ATTESTER)
        .and.include(TEST_REGISTRY.address);
      expect(claim).to.include("3600 s");
    });
  });
});
