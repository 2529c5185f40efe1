import { expect } from "chai";
import { DAY, NOW, POOLS, TEST_ATTESTER, useSeededApp } from "../../helpers/service/app";

describe("verify route (real SQLite)", function () {
  const api = useSeededApp();
  const { get } = api;
  const verify = (payload: string, contentType?: string) => api.postJson("/api/v1/verify", payload, contentType);

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
});
