import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { startServer } from "../../../src/service/server";
import { loadConfig } from "../../../src/config/loadConfig";
import { listActivity } from "../../../src/storage/activity";
import { countLiquidityRequests, getLiquidityRequest } from "../../../src/storage/liquidityRequests";
import type { Store } from "../../../src/storage/openStore";
import { createApiKey } from "../../../src/write/createApiKey";
import { hashApiKey } from "../../../src/write/hashApiKey";
import { registerConfigApiKeys } from "../../../src/write/registerConfigApiKeys";
import { revokeApiKey } from "../../../src/write/revokeApiKey";
import { NOW, POOLS, TEST_ATTESTER, buildTestApp, openTempStore, seed } from "../../helpers/service/app";

const URL = "/api/v1/liquidity-requests";
const KEY = "k".repeat(24) + "-route-test-key-01";
const OTHER_KEY = "o".repeat(24) + "-route-test-key-02";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const WETH = POOLS.weth.toLowerCase();
const BODY = { chainId: 1, pool: POOLS.weth, amountUsd: 250_000, horizonDays: 30 };

describe("liquidity-requests route (real SQLite)", function () {
  let store: Store;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let keyId: string;

  before(async function () {
    const temp = await openTempStore();
    store = temp.store;
    cleanup = temp.cleanup;
    await seed(store);
    await registerConfigApiKeys(
      { db: store.db, now: () => NOW },
      { keys: [KEY, OTHER_KEY].map((key, i) => ({ key, label: `API_KEYS #${i + 1}` })) },
    );
    keyId = (
      await store.db
        .selectFrom("api_keys")
        .select("id")
        .where("key_sha256", "=", hashApiKey({ key: KEY }))
        .executeTakeFirstOrThrow()
    ).id;
    app = await buildTestApp(store);
  });
  after(async function () {
    await app?.close();
    await cleanup();
  });

  const post = (
    payload: unknown,
    headers: Record<string, string> = {},
    options: { key?: string | null; raw?: boolean } = {},
  ) =>
    app.inject({
      method: "POST",
      url: URL,
      payload: options.raw ? (payload as string) : JSON.stringify(payload),
      headers: {
        "content-type": "application/json",
        ...(options.key === null ? {} : { authorization: `Bearer ${options.key ?? KEY}` }),
        ...headers,
      },
    });
  const rows = () => countLiquidityRequests(store.db);

  describe("POST /api/v1/liquidity-requests", function () {
    it("answers 201 with the stored request and its id; the row records the key's id, never the key", async function () {
      const res = await post({ ...BODY, note: "launch week" });
      expect(res.statusCode).to.equal(201);
      expect(res.headers["content-type"]).to.match(/^application\/json/);
      const body = res.json();
      expect(body).to.deep.equal({
        id: body.id,
        chainId: 1,
        pool: `eip155:1:${WETH}`,
        asset: null,
        amountUsd: 250_000,
        horizonDays: 30,
        note: "launch week",
        apiKeyId: keyId,
        createdAt: NOW,
      });
      expect(body.id).to.match(/^[0-9a-f-]{36}$/);
      const row = await getLiquidityRequest(store.db, body.id);
      expect(row).to.include({ pool_address: WETH, api_key_id: keyId, amount_usd: 250_000 });
      expect(JSON.stringify(row)).to.not.include(KEY);
      expect(JSON.stringify(row)).to.not.include(hashApiKey({ key: KEY }));
    });

    it("writes the liquidity_request.created event with the row (data.id, poolId)", async function () {
      const { id } = (await post(BODY)).json();
      const events = await listActivity(store.db, { limit: 200, beforeId: null, kinds: ["liquidity_request.created"] });
      const event = events.find((e) => JSON.parse(e.data_json).id === id);
      expect(event).to.not.equal(undefined);
      expect(JSON.parse(event!.data_json)).to.include({ id, poolId: `eip155:1:${WETH}` });
      expect(event!.data_json).to.not.include(keyId);
    });

    it("accepts an asset instead of a pool", async function () {
      const res = await post({
        chainId: 8453,
        asset: POOLS.stale.toUpperCase().replace("0X", "0x"),
        amountUsd: 10,
        horizonDays: 7,
      });
      expect(res.statusCode).to.equal(201);
      expect(res.json()).to.include({ pool: null, asset: POOLS.stale.toLowerCase(), chainId: 8453 });
    });

    it("accepts the three pool id shapes, any case", async function () {
      for (const pool of [POOLS.weth.toUpperCase().replace("0X", "0x"), `1:${POOLS.weth}`, `eip155:1:${POOLS.weth}`]) {
        const res = await post({ ...BODY, pool });
        expect(res.statusCode, pool).to.equal(201);
        expect(res.json().pool).to.equal(`eip155:1:${WETH}`);
      }
    });
  });

  describe("authentication", function () {
    async function expectUnauthorized(res: Awaited<ReturnType<typeof post>>, challenge: string): Promise<void> {
      expect(res.statusCode).to.equal(401);
      expect(res.headers["www-authenticate"]).to.equal(challenge);
      expect(res.json().error.code).to.equal("UNAUTHORIZED");
      expect(res.body).to.not.include(KEY.slice(0, 20));
    }

    it("answers 401 UNAUTHORIZED with WWW-Authenticate: Bearer without a key, and writes nothing", async function () {
      const before = await rows();
      await expectUnauthorized(await post(BODY, {}, { key: null }), "Bearer");
      expect(await rows()).to.equal(before);
    });

    it("answers 401 for a wrong key (well formed, unknown)", async function () {
      const before = await rows();
      await expectUnauthorized(await post(BODY, {}, { key: "w".repeat(40) }), 'Bearer error="invalid_token"');
      expect(await rows()).to.equal(before);
    });

    for (const authorization of [
      "Basic dXNlcjpwYXNz",
      "Bearer",
      `Bearer ${"s".repeat(31)}`,
      `Bearer ${KEY} extra`,
      KEY,
    ]) {
      it(`answers 401 for a malformed Authorization header (${authorization.slice(0, 16)}…)`, async function () {
        const res = await post(BODY, { authorization });
        await expectUnauthorized(res, 'Bearer error="invalid_token"');
      });
    }

    it("accepts the scheme in any case", async function () {
      expect((await post(BODY, { authorization: `bearer ${KEY}` })).statusCode).to.equal(201);
    });

    it("answers 401 for a revoked wallet key, which worked before", async function () {
      const wallet = await createApiKey({ db: store.db, now: () => NOW }, { owner: WALLET, label: "test" });
      expect((await post(BODY, {}, { key: wallet.key })).statusCode).to.equal(201);
      await revokeApiKey({ db: store.db, now: () => NOW }, { id: wallet.id, owner: WALLET });
      const before = await rows();
      await expectUnauthorized(await post(BODY, {}, { key: wallet.key }), 'Bearer error="invalid_token"');
      expect(await rows()).to.equal(before);
    });

    it("checks the key before the body: a bad body without a key is a 401, not a 400", async function () {
      const res = await post("{not json", { "content-type": "text/plain" }, { key: null, raw: true });
      expect(res.statusCode).to.equal(401);
      expect(res.json().error.code).to.equal("UNAUTHORIZED");
    });
  });

  describe("validation (400 naming the field, no coercion)", function () {
    const cases: [string, Record<string, unknown>, string][] = [
      ["chainId missing", { chainId: undefined }, "chainId"],
      ["chainId as a string", { chainId: "1" }, "chainId"],
      ["chainId 0", { chainId: 0 }, "chainId"],
      ["chainId with a fraction", { chainId: 1.5 }, "chainId"],
      ["amountUsd as a string", { amountUsd: "250000" }, "amountUsd"],
      ["amountUsd 0", { amountUsd: 0 }, "amountUsd"],
      ["amountUsd negative", { amountUsd: -5 }, "amountUsd"],
      ["amountUsd above 1e12", { amountUsd: 1e12 + 1 }, "amountUsd"],
      ["amountUsd missing", { amountUsd: undefined }, "amountUsd"],
      ["horizonDays 0", { horizonDays: 0 }, "horizonDays"],
      ["horizonDays 366", { horizonDays: 366 }, "horizonDays"],
      ["horizonDays 1.5", { horizonDays: 1.5 }, "horizonDays"],
      ["horizonDays as a string", { horizonDays: "30" }, "horizonDays"],
      ["note of 501 characters", { note: "n".repeat(501) }, "note"],
      ["note as a number", { note: 5 }, "note"],
      ["note with a NUL", { note: "a\u0000b" }, "note"],
      ["both pool and asset", { asset: POOLS.stale }, "asset"],
      ["neither pool nor asset", { pool: undefined }, "pool"],
      ["pool as a number", { pool: 1 }, "pool"],
      ["asset malformed", { pool: undefined, asset: "0x1234" }, "asset"],
      ["an unknown member", { extra: true }, "extra"],
    ];
    for (const [title, change, field] of cases) {
      it(`refuses ${title}`, async function () {
        const before = await rows();
        const res = await post({ ...BODY, ...change });
        expect(res.statusCode).to.equal(400);
        expect(res.json().error).to.include({ code: "INVALID_REQUEST", field });
        expect(await rows()).to.equal(before);
      });
    }

    it("accepts a note of exactly 500 characters, with line breaks", async function () {
      expect((await post({ ...BODY, note: `${"n".repeat(498)}\r\n` })).statusCode).to.equal(201);
    });

    it("refuses a body that is not an object, JSON that is not JSON, and repeated members", async function () {
      expect((await post([BODY])).json().error.code).to.equal("INVALID_REQUEST");
      expect((await post("{", {}, { raw: true })).json().error.code).to.equal("INVALID_JSON");
      const repeated = await post(
        '{"chainId":1,"chainId":8453,"pool":"x","amountUsd":1,"horizonDays":1}',
        {},
        { raw: true },
      );
      expect(repeated.statusCode).to.equal(400);
      expect(repeated.json().error).to.include({ code: "INVALID_JSON", field: "chainId" });
    });

    it("refuses a number that overflows to Infinity and a chainId written 1.0", async function () {
      const huge = await post(
        '{"chainId":1,"pool":"' + POOLS.weth + '","amountUsd":1e400,"horizonDays":1}',
        {},
        { raw: true },
      );
      expect(huge.json().error).to.include({ code: "INVALID_REQUEST", field: "amountUsd" });
      const fraction = await post(
        '{"chainId":1.0,"pool":"' + POOLS.weth + '","amountUsd":1,"horizonDays":1}',
        {},
        { raw: true },
      );
      expect(fraction.json().error).to.include({ code: "INVALID_REQUEST", field: "chainId" });
    });

    it("answers 415 for a body that is not application/json, 400 for none", async function () {
      const form = await post("chainId=1", { "content-type": "application/x-www-form-urlencoded" }, { raw: true });
      expect(form.statusCode).to.equal(415);
      expect(form.json().error.code).to.equal("UNSUPPORTED_MEDIA_TYPE");
      const empty = await app.inject({ method: "POST", url: URL, headers: { authorization: `Bearer ${KEY}` } });
      expect(empty.statusCode).to.equal(400);
      expect(empty.json().error.code).to.equal("INVALID_REQUEST");
    });
  });

  describe("the pool (resolved like every reader)", function () {
    it("answers 404 POOL_NOT_FOUND for an untracked pool", async function () {
      const res = await post({ ...BODY, pool: "0x4444444444444444444444444444444444444444" });
      expect(res.statusCode).to.equal(404);
      expect(res.json().error.code).to.equal("POOL_NOT_FOUND");
    });

    it("answers 409 AMBIGUOUS_POOL with the candidates for a bare address on two chains", async function () {
      const res = await post({ ...BODY, chainId: 8453, pool: POOLS.shared });
      expect(res.statusCode).to.equal(409);
      expect(res.json().error.candidates).to.deep.equal([
        `eip155:8453:${POOLS.shared}`,
        `eip155:42161:${POOLS.shared}`,
      ]);
    });

    it("answers 400 INVALID_POOL_ID for a malformed pool id", async function () {
      const res = await post({ ...BODY, pool: "pool-1" });
      expect(res.statusCode).to.equal(400);
      expect(res.json().error).to.include({ code: "INVALID_POOL_ID", field: "pool" });
    });

    it("answers 400 CHAIN_MISMATCH when chainId disagrees with the pool", async function () {
      for (const pool of [`eip155:1:${POOLS.weth}`, POOLS.weth]) {
        const res = await post({ ...BODY, chainId: 8453, pool });
        expect(res.statusCode).to.equal(400);
        expect(res.json().error).to.include({ code: "CHAIN_MISMATCH", field: "chainId", pool: `eip155:1:${WETH}` });
      }
    });

    it("answers 404 CHAIN_NOT_TRACKED for an asset on a chain without tracked pools", async function () {
      const res = await post({ chainId: 10, asset: POOLS.stale, amountUsd: 1, horizonDays: 1 });
      expect(res.statusCode).to.equal(404);
      expect(res.json().error).to.include({ code: "CHAIN_NOT_TRACKED", field: "chainId" });
    });
  });

  describe("Idempotency-Key", function () {
    it("returns the first answer (status, body, id) for a retry and writes no second row or event", async function () {
      const first = await post(BODY, { "idempotency-key": "retry-1" });
      expect(first.statusCode).to.equal(201);
      expect(first.headers["idempotent-replayed"]).to.equal(undefined);
      const rowsAfterFirst = await rows();
      const eventsAfterFirst = (await listActivity(store.db, { limit: 200, beforeId: null })).length;
      // The same body, spaced and ordered differently.
      const again = await post(
        `{ "horizonDays": 30, "amountUsd": 250000, "pool": "${POOLS.weth}", "chainId": 1 }`,
        { "idempotency-key": "retry-1" },
        { raw: true },
      );
      expect(again.statusCode).to.equal(201);
      expect(again.body).to.equal(first.body);
      expect(again.headers["idempotent-replayed"]).to.equal("true");
      expect(await rows()).to.equal(rowsAfterFirst);
      expect((await listActivity(store.db, { limit: 200, beforeId: null })).length).to.equal(eventsAfterFirst);
    });

    it("refuses the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED", async function () {
      await post(BODY, { "idempotency-key": "retry-2" });
      const before = await rows();
      const res = await post({ ...BODY, horizonDays: 31 }, { "idempotency-key": "retry-2" });
      expect(res.statusCode).to.equal(422);
      expect(res.json().error).to.include({ code: "IDEMPOTENCY_KEY_REUSED", field: "Idempotency-Key" });
      expect(await rows()).to.equal(before);
    });

    it("keys it per API key: another key's same Idempotency-Key is its own request", async function () {
      const mine = (await post(BODY, { "idempotency-key": "shared-id" })).json();
      const theirs = await post(BODY, { "idempotency-key": "shared-id" }, { key: OTHER_KEY });
      expect(theirs.statusCode).to.equal(201);
      expect(theirs.json().id).to.not.equal(mine.id);
    });

    for (const value of ["", "has space", "x".repeat(256), "naïve"]) {
      it(`refuses the Idempotency-Key ${JSON.stringify(value).slice(0, 16)} with 400`, async function () {
        const res = await app.inject({
          method: "POST",
          url: URL,
          payload: JSON.stringify(BODY),
          headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, "idempotency-key": value },
        });
        expect(res.statusCode).to.equal(400);
        expect(res.json().error.code).to.equal("INVALID_IDEMPOTENCY_KEY");
      });
    }

    it("writes one row for concurrent retries", async function () {
      const before = await rows();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => post(BODY, { "idempotency-key": "concurrent-1" })),
      );
      expect(results.map((res) => res.statusCode)).to.deep.equal(Array(10).fill(201));
      expect(new Set(results.map((res) => res.json().id)).size).to.equal(1);
      expect(await rows()).to.equal(before + 1);
    });
  });

  describe("around the route", function () {
    it("drops the response cache after a write, not after a replay or an error", async function () {
      let calls = 0;
      const original = app.responseCache.invalidate;
      app.responseCache.invalidate = () => {
        calls++;
        original();
      };
      try {
        await post(BODY, { "idempotency-key": "cache-1" });
        await post(BODY, { "idempotency-key": "cache-1" });
        await post({ ...BODY, pool: "0x4444444444444444444444444444444444444444" });
        await post(BODY, {}, { key: null });
      } finally {
        app.responseCache.invalidate = original;
      }
      expect(calls).to.equal(1);
    });

    it("keeps CORS to GET and HEAD: a preflight from another origin does not allow this POST", async function () {
      const res = await app.inject({
        method: "OPTIONS",
        url: URL,
        headers: {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(String(res.headers["access-control-allow-methods"])).to.not.include("POST");
      expect(res.headers["access-control-allow-credentials"]).to.equal(undefined);
    });

    it("is in the OpenAPI document with its bearer security scheme", async function () {
      const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
      const operation = doc.paths[URL].post;
      expect(operation.security).to.deep.equal([{ bearerAuth: [] }]);
      expect(Object.keys(operation.responses)).to.include.members(["201", "400", "401", "404", "409", "422"]);
      expect(doc.components.securitySchemes.bearerAuth).to.include({ type: "http", scheme: "bearer" });
    });

    it("answers 413 above the 64 KiB body limit", async function () {
      const res = await post({ ...BODY, note: "n".repeat(70 * 1024) });
      expect(res.statusCode).to.equal(413);
      expect(res.json().error.code).to.equal("BODY_TOO_LARGE");
    });

    it("sits under the API's rate limit (per client address), before the key is checked", async function () {
      const limited = await buildTestApp(store, { RATE_LIMIT_MAX: "2" });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await limited.inject({
            method: "POST",
            url: URL,
            payload: "{}",
            headers: { "content-type": "application/json" },
          });
          codes.push(res.statusCode);
        }
        expect(codes).to.deep.equal([401, 401, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe("on a real port", function () {
    let server: FastifyInstance;
    let base: string;
    before(async function () {
      const config = loadConfig({ env: { LOG_LEVEL: "silent", PORT: "0" } });
      const started = await startServer({
        store,
        config,
        attester: { address: TEST_ATTESTER, registry: null },
        now: () => NOW,
      });
      server = started.app;
      base = started.url;
    });
    after(async function () {
      await server?.close();
    });

    const send = (headers: Record<string, string>, body: unknown = BODY) =>
      fetch(`${base}${URL}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });

    it("answers 201 with a key and 401 with WWW-Authenticate: Bearer without one", async function () {
      const ok = await send({ authorization: `Bearer ${KEY}` });
      expect(ok.status).to.equal(201);
      expect(((await ok.json()) as { pool: string }).pool).to.equal(`eip155:1:${WETH}`);
      const denied = await send({});
      expect(denied.status).to.equal(401);
      expect(denied.headers.get("www-authenticate")).to.equal("Bearer");
      expect(((await denied.json()) as { error: { code: string } }).error.code).to.equal("UNAUTHORIZED");
    });

    it("writes one row for concurrent retries over separate connections", async function () {
      const before = await rows();
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => send({ authorization: `Bearer ${KEY}`, "idempotency-key": "port-race" })),
      );
      const bodies = await Promise.all(responses.map((res) => res.text()));
      expect(responses.map((res) => res.status)).to.deep.equal(Array(8).fill(201));
      expect(new Set(bodies).size).to.equal(1);
      expect(await rows()).to.equal(before + 1);
    });
  });
});
