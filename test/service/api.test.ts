import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { verifyTypedData, type Hex } from "viem";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import type { Store } from "../../src/storage/openStore";
import {
  DAY,
  NOW,
  POOLS,
  TEST_ATTESTER,
  TEST_REGISTRY,
  buildTestApp,
  insertAttestation,
  openTempStore,
  seed,
} from "./helper";

describe("service API (route level, real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;

  before(async function () {
    ({ store, cleanup } = await openTempStore());
    await seed(store);
    app = await buildTestApp(store);
  });

  after(async function () {
    await app.close();
    await cleanup();
  });

  const get = (url: string) => app.inject({ method: "GET", url });
  const verify = (payload: string, contentType = "application/json") =>
    app.inject({ method: "POST", url: "/api/v1/verify", payload, headers: { "content-type": contentType } });

  describe("GET /api/v1/attester", function () {
    it("returns the attester, the scheme and the registry", async function () {
      const res = await get("/api/v1/attester");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({ attester: TEST_ATTESTER, scheme: "eip191-v1", registry: TEST_REGISTRY });
    });

    it("reports a null registry when none is configured", async function () {
      const bare = await buildTestApp(store, {}, { registry: null });
      try {
        expect((await bare.inject({ method: "GET", url: "/api/v1/attester" })).json().registry).to.equal(null);
      } finally {
        await bare.close();
      }
    });
  });

  describe("GET /api/v1/pools", function () {
    it("lists every tracked pool with its qualified id and stale flag", async function () {
      const res = await get("/api/v1/pools");
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expect(body.pools).to.have.length(6);
      const weth = body.pools.find((p: { id: string }) => p.id === `eip155:1:${POOLS.weth.toLowerCase()}`);
      expect(weth).to.deep.equal({
        id: `eip155:1:${POOLS.weth.toLowerCase()}`,
        chainId: 1,
        address: POOLS.weth.toLowerCase(),
        symbol: "WETH-USDC",
        protocol: "uniswap-v2",
        kind: "amm",
        depthUsd: 1_000_000,
        observedAt: NOW - 60,
        stale: false,
      });
      const stale = body.pools.find((p: { id: string }) => p.id === `eip155:8453:${POOLS.stale}`);
      expect(stale.stale).to.equal(true);
      expect(stale.depthUsd).to.equal(777_000);
      const unseen = body.pools.find((p: { id: string }) => p.id === `eip155:1:${POOLS.unseen}`);
      expect(unseen).to.include({ depthUsd: null, observedAt: null, stale: true });
    });

    it("holds stale depths out of the total and publishes them beside it", async function () {
      const body = (await get("/api/v1/pools")).json();
      // Fresh: weth 1,000,000 + aUSDC 250,000 + shared 40,000 + 10,000. Stale: 777,000 (+ one never observed).
      expect(body.total).to.deep.equal({ depthUsd: 1_300_000, pools: 4 });
      expect(body.heldOut.depthUsd).to.equal(777_000);
      expect(body.heldOut.pools).to.have.members([`eip155:8453:${POOLS.stale}`, `eip155:1:${POOLS.unseen}`]);
      expect(body.freshnessWindowS).to.equal(3600);
    });

    it("applies the configured freshness window", async function () {
      const wide = await buildTestApp(store, { FRESHNESS_WINDOW_S: "86400" });
      try {
        const body = (await wide.inject({ method: "GET", url: "/api/v1/pools" })).json();
        expect(body.total.depthUsd).to.equal(2_077_000);
        expect(body.heldOut.pools).to.deep.equal([`eip155:1:${POOLS.unseen}`]);
      } finally {
        await wide.close();
      }
    });
  });

  describe("GET /api/v1/pool/{pool}", function () {
    const weth = POOLS.weth.toLowerCase();

    for (const [shape, id] of [
      ["bare address", POOLS.weth],
      ["bare address, lower case", weth],
      ["bare address, upper case", `0x${weth.slice(2).toUpperCase()}`],
      ["chainId:address", `1:${POOLS.weth}`],
      ["CAIP-10", `eip155:1:${POOLS.weth}`],
      ["CAIP-10, upper-case namespace", `EIP155:1:${weth}`],
    ] as const) {
      it(`serves the latest attestation for the ${shape} shape`, async function () {
        const res = await get(`/api/v1/pool/${id}`);
        expect(res.statusCode).to.equal(200);
        const body = res.json();
        expect(body).to.include({
          chainId: 1,
          confidence: 0.85,
          expiry: NOW + DAY,
          horizon: 30,
          issuedAt: NOW - 2 * DAY,
          pool: weth,
          attester: TEST_ATTESTER,
          symbol: "WETH-USDC",
          protocol: "uniswap-v2",
          outcome: "pending",
        });
      });
    }

    it("lists the spec fields first, in order, then the v2 block, the claim and the evidence", async function () {
      const body = (await get(`/api/v1/pool/${POOLS.weth}`)).json();
      expect(Object.keys(body)).to.deep.equal([
        "chainId",
        "confidence",
        "expiry",
        "horizon",
        "issuedAt",
        "pool",
        "signature",
        "attester",
        "symbol",
        "protocol",
        "outcome",
        "eip712",
        "claim",
        "evidence",
      ]);
      expect(body.claim).to.deep.equal({
        statement: "depth stays at or above floor × depthAtIssuanceUsd for 30 days",
        floor: 0.5,
        depthAtIssuanceUsd: 1_000_000,
        thresholdUsd: 500_000,
        model: "horizon-v1",
      });
    });

    it("shows the lowest depth observed inside the claim's own window (not before it)", async function () {
      const { evidence } = (await get(`/api/v1/pool/${POOLS.weth}`)).json();
      expect(evidence).to.include({
        windowStart: NOW - 2 * DAY,
        windowEnd: NOW + 28 * DAY,
        windowStartDate: "2025-12-30",
        windowEndDate: "2026-01-29",
        waiting: true,
        lowestDepthUsd: 900_000,
        lowestDepthDay: "2025-12-30",
      });
    });

    it("serves a v1 signature that verifies against GET /api/v1/attester, and a v2 block for the registry", async function () {
      const { attester } = (await get("/api/v1/attester")).json();
      const res = await get(`/api/v1/pool/eip155:1:${POOLS.weth}`);
      const body = parseAttestationJson({ text: res.body }) as Parameters<typeof verifyAttestation>[0]["attestation"];
      const result = verifyAttestation({ attestation: body, address: attester, time: new Date(NOW * 1000) });
      expect(result).to.deep.include({ valid: true, expired: false, attester: TEST_ATTESTER });
      const { eip712 } = res.json();
      expect(eip712.domain).to.deep.equal({
        name: "AttestationRegistry",
        version: "1",
        chainId: "1",
        verifyingContract: TEST_REGISTRY.address,
      });
      expect(eip712.message).to.deep.equal({
        chainId: "1",
        pool: POOLS.weth,
        confidence: "85",
        horizonDays: "30",
        issuedAt: String(NOW - 2 * DAY),
        expiresAt: String(NOW + DAY),
      });
      const ok = await verifyTypedData({
        address: attester,
        domain: { ...eip712.domain, chainId: BigInt(eip712.domain.chainId) },
        types: eip712.types,
        primaryType: eip712.primaryType,
        message: eip712.message,
        signature: eip712.signature as Hex,
      });
      expect(ok).to.equal(true);
    });

    it("serves an expired attestation as it was signed: authentic and expired", async function () {
      const { attester } = (await get("/api/v1/attester")).json();
      const res = await get(`/api/v1/pool/42161:${POOLS.shared}`);
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expect(body).to.not.have.property("eip712");
      expect(body.confidence).to.equal(1);
      const result = verifyAttestation({ attestation: body, address: attester, time: new Date(NOW * 1000) });
      expect(result).to.deep.include({ valid: true, expired: true });
      expect(result.canonical).to.equal(
        `{"chainId":"42161","confidence":"1.00","expiresAt":"${NOW - DAY}","horizonDays":"7","issuedAt":"${NOW - 3 * DAY}","pool":"${POOLS.shared}","v":"1"}`,
      );
    });

    it("answers 409 with the qualified candidates for an address tracked on two chains", async function () {
      const res = await get(`/api/v1/pool/${POOLS.shared}`);
      expect(res.statusCode).to.equal(409);
      expect(res.json().error).to.deep.include({
        code: "AMBIGUOUS_POOL",
        candidates: [`eip155:8453:${POOLS.shared}`, `eip155:42161:${POOLS.shared}`],
      });
    });

    for (const id of ["0x4444444444444444444444444444444444444444", `10:${POOLS.weth}`, `eip155:8453:${POOLS.weth}`]) {
      it(`answers 404 POOL_NOT_FOUND for the unknown pool ${id}`, async function () {
        const res = await get(`/api/v1/pool/${id}`);
        expect(res.statusCode).to.equal(404);
        expect(res.json().error.code).to.equal("POOL_NOT_FOUND");
      });
    }

    it("answers 404 NO_ATTESTATION with the reason for a known pool without one", async function () {
      const res = await get(`/api/v1/pool/${POOLS.ausdc}`);
      expect(res.statusCode).to.equal(404);
      const { error } = res.json();
      expect(error.code).to.equal("NO_ATTESTATION");
      expect(error.reason).to.match(/history/);
      const unseen = (await get(`/api/v1/pool/${POOLS.unseen}`)).json().error;
      expect(unseen.code).to.equal("NO_ATTESTATION");
      expect(unseen.reason).to.match(/not been observed/);
      const other = (await get(`/api/v1/pool/8453:${POOLS.shared}`)).json().error;
      expect(other.code).to.equal("NO_ATTESTATION");
    });

    for (const id of [
      "0x123",
      "weth",
      `0x${"g".repeat(40)}`,
      `0:${POOLS.weth}`,
      `01:${POOLS.weth}`,
      `-1:${POOLS.weth}`,
      `eip155:${POOLS.weth}`,
      `cosmos:1:${POOLS.weth}`,
      `1:${POOLS.weth}:extra`,
      `99999999999999999999:${POOLS.weth}`,
      `${POOLS.weth}00`,
    ]) {
      it(`answers 400 INVALID_POOL_ID for the malformed id ${id.slice(0, 30)}`, async function () {
        const res = await get(`/api/v1/pool/${encodeURIComponent(id)}`);
        expect(res.statusCode).to.equal(400);
        expect(res.json().error).to.deep.include({ code: "INVALID_POOL_ID", field: "pool" });
      });
    }

    it("answers 400 INVALID_POOL_ID (not 404 or 5xx) for an overlong id", async function () {
      const res = await get(`/api/v1/pool/${"a".repeat(300)}`);
      expect(res.statusCode).to.equal(400);
      expect(res.json().error.code).to.equal("INVALID_POOL_ID");
    });
  });

  describe("every served attestation", function () {
    it("verifies with the library against GET /api/v1/attester", async function () {
      const { attester } = (await get("/api/v1/attester")).json();
      const { pools } = (await get("/api/v1/pools")).json();
      let served = 0;
      for (const pool of pools as { id: string }[]) {
        const res = await get(`/api/v1/pool/${pool.id}`);
        expect(res.statusCode, pool.id).to.be.oneOf([200, 404]);
        if (res.statusCode !== 200) continue;
        const attestation = parseAttestationJson({ text: res.body }) as Parameters<
          typeof verifyAttestation
        >[0]["attestation"];
        expect(verifyAttestation({ attestation, address: attester }).valid, pool.id).to.equal(true);
        served++;
      }
      expect(served).to.equal(2);
    });
  });

  describe("POST /api/v1/verify", function () {
    let served: string;
    before(async function () {
      served = (await get(`/api/v1/pool/${POOLS.weth}`)).body;
    });

    it("verifies the attestation exactly as served", async function () {
      const res = await verify(served);
      expect(res.statusCode).to.equal(200);
      const body = res.json();
      expect(body).to.deep.equal({
        valid: true,
        attester: TEST_ATTESTER,
        expired: body.expired,
        canonical: `{"chainId":"1","confidence":"0.85","expiresAt":"${NOW + DAY}","horizonDays":"30","issuedAt":"${NOW - 2 * DAY}","pool":"${POOLS.weth.toLowerCase()}","v":"1"}`,
      });
    });

    it("reports valid and expired independently (expired, still authentic)", async function () {
      const expired = (await get(`/api/v1/pool/42161:${POOLS.shared}`)).body;
      expect((await verify(expired)).json()).to.include({ valid: true, expired: true });
    });

    it("accepts a charset parameter on the content type", async function () {
      expect((await verify(served, "application/json; charset=utf-8")).statusCode).to.equal(200);
    });

    it("returns valid false for a tampered field (the signature no longer recovers to the attester)", async function () {
      const tampered = { ...JSON.parse(served), confidence: 0.99 };
      const body = (await verify(JSON.stringify(tampered))).json();
      expect(body.valid).to.equal(false);
      expect(body.attester).to.not.equal(TEST_ATTESTER);
    });

    it("ignores the payload's attester field: the expected signer is the service's own", async function () {
      const forged = { ...JSON.parse(served), attester: "0x0000000000000000000000000000000000000001" };
      expect((await verify(JSON.stringify(forged))).json().valid).to.equal(true);
    });

    for (const attester of [null, 5, { address: "0x1" }, [], true]) {
      it(`ignores a non-string payload attester (${JSON.stringify(attester)}): it is informational`, async function () {
        const res = await verify(JSON.stringify({ ...JSON.parse(served), attester }));
        expect(res.statusCode).to.equal(200);
        expect(res.json()).to.include({ valid: true, attester: TEST_ATTESTER });
      });
    }

    it("rejects a string confidence with 400 naming the field (no coercion)", async function () {
      const res = await verify(JSON.stringify({ ...JSON.parse(served), confidence: "0.85" }));
      expect(res.statusCode).to.equal(400);
      expect(res.json().error).to.include({ code: "INVALID_REQUEST", field: "confidence" });
    });

    for (const field of ["chainId", "confidence", "expiry", "horizon", "issuedAt", "pool", "signature"]) {
      it(`rejects a body without ${field} with 400 naming it`, async function () {
        const body = JSON.parse(served);
        delete body[field];
        const res = await verify(JSON.stringify(body));
        expect(res.statusCode).to.equal(400);
        expect(res.json().error.field).to.equal(field);
      });
    }

    for (const [field, value] of [
      ["pool", "0x1234"],
      ["signature", "0xzz"],
      ["chainId", -1],
      ["chainId", "0x1"],
      ["expiry", 1.5],
      ["horizon", "007"],
      ["issuedAt", null],
      ["confidence", -0.5],
    ] as const) {
      it(`rejects a malformed ${field} (${JSON.stringify(value)}) with 400 naming it`, async function () {
        const res = await verify(JSON.stringify({ ...JSON.parse(served), [field]: value }));
        expect(res.statusCode).to.equal(400);
        expect(res.json().error.field).to.equal(field);
        // A well-formed JSON body with a bad field is never reported as bad JSON.
        expect(res.json().error.code).to.be.oneOf(["INVALID_REQUEST", "INVALID_ATTESTATION"]);
      });
    }

    it("rejects an integer beyond 2^53 - 1 given as a string with 400 naming the field", async function () {
      const res = await verify(JSON.stringify({ ...JSON.parse(served), expiry: "9007199254740992" }));
      expect(res.statusCode).to.equal(400);
      expect(res.json().error).to.include({ code: "INVALID_ATTESTATION", field: "expiry" });
    });

    it("rejects duplicate keys with 400 naming the key", async function () {
      const text = served.replace('"confidence":0.85', '"confidence":0.85,"confidence":0.99');
      expect(text).to.not.equal(served);
      const res = await verify(text);
      expect(res.statusCode).to.equal(400);
      expect(res.json().error).to.include({ code: "INVALID_JSON", field: "confidence" });
    });

    for (const [what, payload] of [
      ["an array", "[1,2]"],
      ["a string", '"attestation"'],
      ["null", "null"],
      ["invalid JSON", "{"],
      ["an empty body", ""],
    ] as const) {
      it(`rejects ${what} with 400`, async function () {
        const res = await verify(payload);
        expect(res.statusCode).to.equal(400);
        expect(res.json().error.code).to.match(/^INVALID_/);
      });
    }

    it("rejects a non-JSON content type with 415", async function () {
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
        const res = await verify(served, type);
        expect(res.statusCode, type).to.equal(415);
        expect(res.json().error.code).to.equal("UNSUPPORTED_MEDIA_TYPE");
      }
    });

    it("rejects a body over 64 KiB with 413", async function () {
      const big = JSON.stringify({ ...JSON.parse(served), symbol: "x".repeat(70_000) });
      const res = await verify(big);
      expect(res.statusCode).to.equal(413);
      expect(res.json().error.code).to.equal("BODY_TOO_LARGE");
    });
  });

  describe("GET /api/v1/health and the OpenAPI document", function () {
    it("reports the store's counts", async function () {
      const res = await get("/api/v1/health");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({ status: "ok", pools: 6, attestations: 3, lastIngest: null });
    });

    it("serves an OpenAPI document naming every route", async function () {
      const doc = (await get("/api/v1/openapi.json")).json();
      expect(doc.openapi).to.match(/^3\./);
      expect(Object.keys(doc.paths)).to.include.members([
        "/api/v1/pools",
        "/api/v1/pool/{pool}",
        "/api/v1/attester",
        "/api/v1/verify",
        "/api/v1/health",
        "/api/v1/openapi.json",
      ]);
      expect(doc.components.schemas.Error.properties.error.required).to.deep.equal(["code", "message"]);
      expect(doc.paths["/api/v1/pool/{pool}"].get.responses["409"].content["application/json"].schema).to.deep.equal({
        $ref: "#/components/schemas/Error",
      });
    });

    it("answers unknown routes with a JSON 404", async function () {
      const res = await get("/api/v1/nope");
      expect(res.statusCode).to.equal(404);
      expect(res.json().error.code).to.equal("ROUTE_NOT_FOUND");
    });

    it("opens CORS for reads", async function () {
      const res = await app.inject({ method: "GET", url: "/api/v1/pools", headers: { origin: "https://example.org" } });
      expect(res.headers["access-control-allow-origin"]).to.equal("*");
    });
  });

  describe("rate limit", function () {
    let limited: FastifyInstance;
    before(async function () {
      limited = await buildTestApp(store, {
        RATE_LIMIT_MAX: "3",
        RATE_LIMIT_VERIFY_MAX: "2",
        RATE_LIMIT_WINDOW_S: "60",
      });
    });
    after(async function () {
      await limited.close();
    });

    it("answers 429 RATE_LIMITED once a client exceeds the configured limit", async function () {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.inject({ method: "GET", url: "/api/v1/pools" })).statusCode);
      expect(codes).to.deep.equal([200, 200, 200, 429]);
      const res = await limited.inject({ method: "GET", url: "/api/v1/attester" });
      expect(res.statusCode).to.equal(429);
      expect(res.json().error.code).to.equal("RATE_LIMITED");
    });

    it("keys the limit by client address", async function () {
      const other = await limited.inject({ method: "GET", url: "/api/v1/pools", remoteAddress: "10.0.0.2" });
      expect(other.statusCode).to.equal(200);
    });

    it("applies the stricter limit to POST /verify", async function () {
      const served = (await app.inject({ method: "GET", url: `/api/v1/pool/${POOLS.weth}` })).body;
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.inject({
          method: "POST",
          url: "/api/v1/verify",
          payload: served,
          headers: { "content-type": "application/json" },
          remoteAddress: "10.0.0.3",
        });
        codes.push(res.statusCode);
      }
      expect(codes).to.deep.equal([200, 200, 429]);
    });
  });

  describe("response cache", function () {
    it("serves a newly issued attestation after invalidate(), and after the TTL without it", async function () {
      const temp = await openTempStore();
      try {
        await seed(temp.store);
        const cachedApp = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "600000" });
        const uncachedApp = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "0" });
        const url = `/api/v1/pool/1:${POOLS.weth}`;
        expect((await cachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 2 * DAY);
        await insertAttestation(temp.store, {
          chainId: 1,
          address: POOLS.weth,
          issuedAt: NOW - 60,
          expiry: NOW + DAY,
          horizonDays: 7,
          confidenceHundredths: 90,
        });
        expect((await uncachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 60);
        expect((await cachedApp.inject({ method: "GET", url })).json().issuedAt).to.equal(NOW - 2 * DAY);
        cachedApp.poolsRepository.invalidate();
        const fresh = (await cachedApp.inject({ method: "GET", url })).json();
        expect(fresh).to.include({ issuedAt: NOW - 60, confidence: 0.9, horizon: 7 });
        await cachedApp.close();
        await uncachedApp.close();
      } finally {
        await temp.cleanup();
      }
    });
  });

  describe("store failure", function () {
    it("answers health with 503 and reads with a 500 that hides internals", async function () {
      const temp = await openTempStore();
      const broken = await buildTestApp(temp.store, { API_CACHE_TTL_MS: "0" });
      await temp.cleanup();
      try {
        const health = await broken.inject({ method: "GET", url: "/api/v1/health" });
        expect(health.statusCode).to.equal(503);
        expect(health.json()).to.deep.equal({
          error: { code: "SERVICE_UNAVAILABLE", message: "The store does not answer." },
        });
        const pools = await broken.inject({ method: "GET", url: "/api/v1/pools" });
        expect(pools.statusCode).to.equal(500);
        expect(pools.json()).to.deep.equal({ error: { code: "INTERNAL_ERROR", message: "Internal server error." } });
      } finally {
        await broken.close();
      }
    });
  });
});
