import { expect } from "chai";
import vectors from "../vectors/attestation-v1.json";
import {
  AttestationNotObjectError,
  InvalidConfidenceError,
  InvalidIntegerFieldError,
  InvalidPoolAddressError,
  MissingAttestationFieldError,
} from "../../src/errors/attestation";
import { BaseError } from "../../src/errors/base";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import type { AttestationFields } from "../../src/lib/types";

const base: AttestationFields = {
  chainId: 1,
  confidence: 0.85,
  expiry: 1767225600,
  horizon: 30,
  issuedAt: 1764547200,
  pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
};
const B01 =
  '{"chainId":"1","confidence":"0.85","expiresAt":"1767225600","horizonDays":"30","issuedAt":"1764547200","pool":"0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640","v":"1"}';
const message = (patch: Record<string, unknown>) =>
  createAttestationMessage({ attestation: { ...base, ...patch } as AttestationFields });

describe("createAttestationMessage", () => {
  it("builds every canonical message of the vectors", () => {
    for (const c of vectors.cases) {
      if (c.expected.canonical === null) continue;
      expect(createAttestationMessage({ attestation: c.attestation as AttestationFields }), c.id).to.equal(
        c.expected.canonical,
      );
    }
  });

  it("has exactly the seven keys, alphabetical, string values, no whitespace", () => {
    const text = message({});
    expect(text).to.equal(B01);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed)).to.deep.equal([
      "chainId",
      "confidence",
      "expiresAt",
      "horizonDays",
      "issuedAt",
      "pool",
      "v",
    ]);
    for (const value of Object.values(parsed)) expect(value).to.be.a("string");
    expect(text).not.to.match(/\s/);
  });

  it("ignores unsigned fields and never uses a message or attester from the payload", () => {
    expect(
      message({
        symbol: "SCAM",
        protocol: { x: 1 },
        outcome: null,
        attester: "0xf9592aC44F9aAF3f1A207f60351B1eCC7f0cF342",
        message: '{"chainId":"999"}',
        canonical: "x",
        v: "2",
      }),
    ).to.equal(B01);
  });

  describe("integer fields (chainId, expiry, horizon, issuedAt)", () => {
    const fields = ["chainId", "expiry", "horizon", "issuedAt"] as const;

    it("accepts non-negative safe integers as numbers or canonical decimal strings", () => {
      expect(message({ chainId: "1" })).to.equal(B01);
      expect(message({ expiry: "1767225600", horizon: "30", issuedAt: "1764547200" })).to.equal(B01);
      expect(message({ chainId: 0 })).to.contain('"chainId":"0"');
      expect(message({ chainId: "0" })).to.contain('"chainId":"0"');
      expect(message({ chainId: Number.MAX_SAFE_INTEGER })).to.contain('"chainId":"9007199254740991"');
      expect(message({ chainId: "9007199254740991" })).to.contain('"chainId":"9007199254740991"');
    });

    for (const field of fields) {
      it(`rejects malformed ${field} values without coercing`, () => {
        const bad: unknown[] = [
          -1,
          -0,
          1.5,
          Number.MAX_SAFE_INTEGER + 1,
          1e21,
          NaN,
          Infinity,
          "0x1",
          "+1",
          "-1",
          "1.0",
          "1e3",
          "01",
          "00",
          " 1",
          "1 ",
          "",
          "9007199254740992",
          "12345678901234567890",
          "١",
          null,
          true,
          10n,
          [1],
          {},
        ];
        for (const value of bad)
          expect(() => message({ [field]: value }), `${field}=${String(value)}`)
            .to.throw(InvalidIntegerFieldError)
            .with.property("field", field);
      });

      it(`reports a missing ${field}`, () => {
        expect(() => message({ [field]: undefined }))
          .to.throw(MissingAttestationFieldError)
          .with.property("field", field);
      });
    }
  });

  describe("confidence", () => {
    it("renders with the shortest-decimal half-away-from-zero rule", () => {
      expect(message({ confidence: 0.855 })).to.contain('"confidence":"0.86"');
      expect(message({ confidence: 1.005 })).to.contain('"confidence":"1.01"');
      expect(message({ confidence: 0.1 + 0.2 })).to.contain('"confidence":"0.30"');
      expect(message({ confidence: 1e-7 })).to.contain('"confidence":"0.00"');
      expect(message({ confidence: -0 })).to.contain('"confidence":"0.00"');
    });

    it("must be a JSON number: strings, negatives, NaN and infinities are rejected", () => {
      for (const value of ["0.85", -0.5, NaN, Infinity, null, true])
        expect(() => message({ confidence: value }), String(value))
          .to.throw(InvalidConfidenceError)
          .with.property("field", "confidence");
      expect(() => message({ confidence: undefined }))
        .to.throw(MissingAttestationFieldError)
        .with.property("field", "confidence");
    });
  });

  describe("pool", () => {
    it("accepts any case without a checksum check and signs it lower-cased", () => {
      expect(message({ pool: "0x88E6A0C2DDD26FEEB64F039A2C41296FCB3F5640" })).to.equal(B01);
      // Mixed case with a wrong EIP-55 checksum is still accepted.
      expect(message({ pool: "0x88e6A0c2dDD26FEEb64F039a2c41296fcB3f5641" })).to.contain(
        '"pool":"0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5641"',
      );
    });

    it("rejects anything but 0x and 40 hex digits", () => {
      for (const value of [
        "88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "0X88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f564",
        "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f56400",
        "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f564g",
        " 0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "",
        1,
        null,
      ])
        expect(() => message({ pool: value }), String(value))
          .to.throw(InvalidPoolAddressError)
          .with.property("field", "pool");
      expect(() => message({ pool: undefined }))
        .to.throw(MissingAttestationFieldError)
        .with.property("field", "pool");
    });
  });

  it("rejects a non-object", () => {
    for (const value of [null, [], "x", 1, undefined])
      expect(() => createAttestationMessage({ attestation: value as unknown as AttestationFields })).to.throw(
        AttestationNotObjectError,
      );
  });

  it("throws BaseError subclasses with a stable code, the field and the fix", () => {
    try {
      message({ horizon: "030" });
      expect.fail("should throw");
    } catch (error) {
      expect(error).to.be.instanceOf(BaseError);
      const e = error as InvalidIntegerFieldError;
      expect(e.code).to.equal("ATTESTATION_INTEGER_INVALID");
      expect(e.field).to.equal("horizon");
      expect(e.shortMessage).to.contain('"horizon"');
      expect(e.metaMessages?.join("\n")).to.contain('"030"');
      expect(e.docsPath).to.equal("docs/library.md#integer-fields");
    }
  });
});
