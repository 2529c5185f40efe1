import { expect } from "chai";
import { verifyTypedData, type Hex } from "viem";
import { parseAttestationJson } from "../../../src/lib/parseAttestationJson";
import { verifyAttestation } from "../../../src/lib/verifyAttestation";
import { DAY, NOW, POOLS, TEST_ATTESTER, TEST_REGISTRY, useSeededApp } from "../../helpers/service/app";

describe("pool route (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;

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
        settlesAt: NOW + 28 * DAY,
        lowestDepthUsd: 900_000,
        lowestDepthDate: "2025-12-30",
        daysObserved: 2,
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
        daysObserved: 2,
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

  describe("GET /api/v1/pool/{pool}/history", function () {
    const weth = `eip155:1:${POOLS.weth.toLowerCase()}`;

    it("lists the last 90 complete UTC days by default, oldest first, nulls where nothing was stored", async function () {
      const res = await get(`/api/v1/pool/${POOLS.weth}/history`);
      expect(res.statusCode, res.body).to.equal(200);
      const body = res.json();
      expect(body.pool).to.equal(weth);
      expect(body.days).to.have.length(90);
      expect(body.days[0].date).to.equal("2025-10-03");
      expect(body.days.at(-1)).to.deep.equal({
        date: "2025-12-31",
        lowestDepthUsd: 950_000,
        source: "feed-daily",
        depthUsd: null,
        volumeUsd: null,
      });
      const stored = body.days.filter((day: { lowestDepthUsd: number | null }) => day.lowestDepthUsd !== null);
      expect(stored.map((day: { date: string }) => day.date)).to.deep.equal(["2025-12-28", "2025-12-30", "2025-12-31"]);
    });

    it("draws the claims whose window overlaps the days: both weth attestations, oldest first", async function () {
      const body = (await get(`/api/v1/pool/eip155:1:${POOLS.weth}/history?days=7`)).json();
      expect(body.days.map((day: { date: string }) => day.date)).to.deep.equal([
        "2025-12-25",
        "2025-12-26",
        "2025-12-27",
        "2025-12-28",
        "2025-12-29",
        "2025-12-30",
        "2025-12-31",
      ]);
      expect(body.attestations.map((a: { issuedAt: number }) => a.issuedAt)).to.deep.equal([
        NOW - 10 * DAY,
        NOW - 2 * DAY,
      ]);
      expect(body.attestations[1]).to.include({ horizon: 30, confidence: 0.85, settlesAt: NOW - 2 * DAY + 30 * DAY });
      expect(body.attestations[1].floorUsd).to.be.a("number");
      // Each day gives the depth its first attestation states: the floor is checkable from the history.
      const issuedOn = (at: number) => new Date(at * 1000).toISOString().slice(0, 10);
      const withDepth = body.days.filter((day: { depthUsd: number | null }) => day.depthUsd !== null);
      expect(withDepth.map((day: { date: string }) => day.date)).to.deep.equal([issuedOn(NOW - 2 * DAY)]);
      expect(0.5 * withDepth[0].depthUsd).to.equal(body.attestations[1].floorUsd);
    });

    it("gives a tracked pool without an attestation its history, never a 404", async function () {
      const res = await get(`/api/v1/pool/1:${POOLS.ausdc}/history?days=3`);
      expect(res.statusCode, res.body).to.equal(200);
      expect(res.json().attestations).to.deep.equal([]);
      expect(res.json().days).to.have.length(3);
    });

    for (const [what, url, status, code] of [
      ["days=0", `/api/v1/pool/${POOLS.weth}/history?days=0`, 400, "INVALID_REQUEST"],
      ["days=731", `/api/v1/pool/${POOLS.weth}/history?days=731`, 400, "INVALID_REQUEST"],
      ["a malformed id", "/api/v1/pool/nope/history", 400, "INVALID_POOL_ID"],
      [
        "an unknown pool",
        "/api/v1/pool/eip155:1:0x00000000000000000000000000000000000000aa/history",
        404,
        "POOL_NOT_FOUND",
      ],
      ["an address on two chains", `/api/v1/pool/${POOLS.shared}/history`, 409, "AMBIGUOUS_POOL"],
    ] as const) {
      it(`answers ${what} with ${status} ${code}`, async function () {
        const res = await get(url);
        expect(res.statusCode, res.body).to.equal(status);
        expect(res.json().error.code).to.equal(code);
      });
    }
  });
});
