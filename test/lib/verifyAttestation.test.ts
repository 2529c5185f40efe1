import { expect } from "chai";
import fc from "fast-check";
import { type Hex, hexToBytes } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import vectors from "../vectors/attestation-v1.json";
import {
  InvalidAttestationFieldError,
  InvalidExpectedAddressError,
  InvalidTimeError,
  MissingAttestationFieldError,
} from "../../src/errors/attestation";
import { BaseError } from "../../src/errors/base";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import { signAttestation } from "../../src/lib/signAttestation";
import type { Attestation } from "../../src/lib/types";
import { verifyAttestation } from "../../src/lib/verifyAttestation";

const ATTESTER = vectors.attester.address;
const IMPOSTOR = vectors.impostor.address;
const at = (seconds: number) => new Date(seconds * 1000);
const b01 = vectors.cases[0].attestation as Attestation;

describe("verifyAttestation", () => {
  describe("conformance vectors", () => {
    for (const c of vectors.cases) {
      it(`${c.id}: ${c.description}`, () => {
        // Through the JSON text (as the CLI and the HTTP route receive it) and through the object.
        for (const attestation of [parseAttestationJson({ text: c.attestation_json }), c.attestation]) {
          const run = () =>
            verifyAttestation({
              attestation: attestation as Attestation,
              address: c.expectedAttester,
              time: at(c.now),
            });
          if (c.expected.canonical === null) {
            expect(run).to.throw(BaseError);
            continue;
          }
          const result = run();
          expect(result.valid, "valid").to.equal(c.expected.valid);
          expect(result.canonical, "canonical").to.equal(c.expected.canonical);
          expect(result.attester?.toLowerCase() ?? null, "recovered").to.equal(c.expected.recovered);
          if (c.expected.valid) expect(result.expired, "expired").to.equal(c.expected.expired);
        }
      });
    }
  });

  it("returns the recovered address EIP-55 checksummed", () => {
    const result = verifyAttestation({ attestation: b01, address: ATTESTER.toLowerCase(), time: at(vectors.now) });
    expect(result.attester).to.equal("0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F");
  });

  it("compares the expected address case-insensitively", () => {
    for (const address of [ATTESTER, ATTESTER.toLowerCase(), `0x${ATTESTER.slice(2).toUpperCase()}`])
      expect(verifyAttestation({ attestation: b01, address, time: at(vectors.now) }).valid, address).to.equal(true);
  });

  it("never takes the expected signer from the payload's attester field", () => {
    // Signed by the impostor, payload claims the impostor: still invalid against the pinned attester.
    return signAttestation({ attestation: b01, privateKey: vectors.impostor.privateKey as Hex }).then((signature) => {
      const forged = { ...b01, signature, attester: IMPOSTOR };
      const result = verifyAttestation({ attestation: forged, address: ATTESTER, time: at(vectors.now) });
      expect(result.valid).to.equal(false);
      expect(result.attester).to.equal(IMPOSTOR);
      expect(verifyAttestation({ attestation: forged, address: IMPOSTOR, time: at(vectors.now) }).valid).to.equal(true);
    });
  });

  describe("expiry", () => {
    const expiry = b01.expiry as number;
    it("is expired when expiry <= now (the boundary second is expired)", () => {
      expect(verifyAttestation({ attestation: b01, address: ATTESTER, time: at(expiry - 1) }).expired).to.equal(false);
      expect(verifyAttestation({ attestation: b01, address: ATTESTER, time: at(expiry) }).expired).to.equal(true);
      expect(verifyAttestation({ attestation: b01, address: ATTESTER, time: at(expiry + 1) }).expired).to.equal(true);
    });

    it("uses whole seconds of the clock (expiry - 1 + 0.999 s is still fresh)", () => {
      const time = new Date(expiry * 1000 - 1);
      expect(verifyAttestation({ attestation: b01, address: ATTESTER, time }).expired).to.equal(false);
    });

    it("is independent of validity", () => {
      const expired = verifyAttestation({ attestation: b01, address: ATTESTER, time: at(expiry) });
      expect(expired).to.include({ valid: true, expired: true });
      const wrongSigner = verifyAttestation({ attestation: b01, address: IMPOSTOR, time: at(expiry) });
      expect(wrongSigner).to.include({ valid: false, expired: true });
      const fresh = verifyAttestation({ attestation: b01, address: IMPOSTOR, time: at(0) });
      expect(fresh).to.include({ valid: false, expired: false });
    });

    it("defaults the clock to now", () => {
      const future = { ...b01, expiry: 4102444800 }; // 2100: not expired today; the signature no longer matches
      expect(verifyAttestation({ attestation: future, address: ATTESTER }).expired).to.equal(false);
      const past = { ...b01, expiry: 1 };
      expect(verifyAttestation({ attestation: past, address: ATTESTER }).expired).to.equal(true);
    });
  });

  it("is invalid when any signed field changes, valid when only unsigned fields or spellings change", () => {
    const time = at(vectors.now);
    const tampered: Partial<Attestation>[] = [
      { chainId: 8453 },
      { confidence: 0.86 },
      { expiry: 1767225601 },
      { horizon: 31 },
      { issuedAt: 1764547201 },
      { pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5641" },
    ];
    for (const patch of tampered) {
      const result = verifyAttestation({ attestation: { ...b01, ...patch }, address: ATTESTER, time });
      const same = result.canonical === vectors.cases[0].expected.canonical;
      expect(result.valid, JSON.stringify(patch)).to.equal(same);
    }
    // 0.845 and 0.849 render as "0.85": the same signed message, so the same signature holds.
    for (const confidence of [0.845, 0.849, 0.8500001])
      expect(verifyAttestation({ attestation: { ...b01, confidence }, address: ATTESTER, time }).valid).to.equal(true);
    for (const patch of [
      { symbol: "SCAM" },
      { protocol: 1 },
      { outcome: "graded" },
      { attester: IMPOSTOR },
      { chainId: "1" },
    ])
      expect(
        verifyAttestation({ attestation: { ...b01, ...patch } as Attestation, address: ATTESTER, time }).valid,
      ).to.equal(true);
  });

  it("gives valid false and attester null for a malformed or unrecoverable signature string", () => {
    const body = b01.signature!.slice(2);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = `0x${body.slice(0, 64)}${(n - BigInt(`0x${body.slice(64, 128)}`)).toString(16).padStart(64, "0")}1c`;
    // r = 5 is not the x coordinate of a curve point with this parity for most messages; find one that fails.
    const unrecoverable = `0x${"0".repeat(63)}5${"0".repeat(63)}11b`;
    for (const signature of [
      "",
      "0x",
      "zz",
      `0x${body.slice(0, 128)}`,
      `0x${body.slice(0, 128)}00`,
      highS,
      unrecoverable,
    ]) {
      const result = verifyAttestation({
        attestation: { ...b01, signature },
        address: ATTESTER,
        time: at(vectors.now),
      });
      expect(result, signature).to.include({ valid: false, attester: null, expired: false });
      expect(result.canonical).to.equal(vectors.cases[0].expected.canonical);
    }
  });

  it("gives valid false and attester null, without throwing, for every well-formed 65-byte signature the strict rules refuse", () => {
    const body = b01.signature!.slice(2);
    const r = body.slice(0, 64);
    const s = body.slice(64, 128);
    const hex = (x: bigint) => x.toString(16).padStart(64, "0");
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const refused = {
      "v 29": `0x${r}${s}1d`,
      "v 0": `0x${r}${s}00`,
      "v 1": `0x${r}${s}01`,
      "r 0": `0x${hex(0n)}${s}1b`,
      "r n": `0x${hex(n)}${s}1b`,
      "s 0": `0x${r}${hex(0n)}1b`,
      "s n/2 + 1": `0x${r}${hex(n / 2n + 1n)}1b`,
      "s n - 1": `0x${r}${hex(n - 1n)}1b`,
      "odd length (129 hex digits)": `0x${body.slice(0, 128)}1`,
    };
    for (const [name, signature] of Object.entries(refused)) {
      const result = verifyAttestation({
        attestation: { ...b01, signature },
        address: ATTESTER,
        time: at(vectors.now),
      });
      expect(result, name).to.deep.equal({
        valid: false,
        attester: null,
        expired: false,
        canonical: vectors.cases[0].expected.canonical,
      });
    }
    // The untouched signature, in upper case and with a 0X prefix, still verifies.
    expect(
      verifyAttestation({ attestation: { ...b01, signature: `0X${body.toUpperCase()}` }, address: ATTESTER }).attester,
    ).to.equal(ATTESTER);
  });

  it("throws a typed error for a missing or non-string signature", () => {
    const { signature: _omit, ...unsigned } = b01;
    expect(() => verifyAttestation({ attestation: unsigned, address: ATTESTER }))
      .to.throw(MissingAttestationFieldError)
      .with.property("field", "signature");
    expect(() => verifyAttestation({ attestation: { ...b01, signature: 1 as unknown as string }, address: ATTESTER }))
      .to.throw(BaseError)
      .with.property("field", "signature");
  });

  it("throws a typed error naming the field for a malformed signed field", () => {
    expect(() =>
      verifyAttestation({ attestation: { ...b01, confidence: "0.85" as unknown as number }, address: ATTESTER }),
    )
      .to.throw(InvalidAttestationFieldError)
      .with.property("field", "confidence");
  });

  it("rejects a malformed expected address or clock", () => {
    for (const address of ["", "0x1234", "0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F", undefined, null])
      expect(() => verifyAttestation({ attestation: b01, address: address as unknown as string })).to.throw(
        InvalidExpectedAddressError,
      );
    expect(() => verifyAttestation({ attestation: b01, address: ATTESTER, time: new Date(NaN) })).to.throw(
      InvalidTimeError,
    );
    expect(() =>
      verifyAttestation({ attestation: b01, address: ATTESTER, time: 1765584000 as unknown as Date }),
    ).to.throw(InvalidTimeError);
  });

  describe("properties", () => {
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const privateKey = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => `0x${k.toString(16).padStart(64, "0")}` as Hex);
    const safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
    const integerInput = safe.chain((n) => fc.constantFrom<number | string>(n, String(n)));
    const attestation = fc.record({
      chainId: integerInput,
      confidence: fc.oneof(
        fc.integer({ min: 0, max: 100 }).map((k) => k / 100),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
      ),
      expiry: integerInput,
      horizon: integerInput,
      issuedAt: integerInput,
      pool: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
    });
    const fields = ["chainId", "confidence", "expiry", "horizon", "issuedAt", "pool"] as const;

    /** A change to one signed field that changes its signed form. */
    function tamper(a: Attestation, field: (typeof fields)[number], salt: number): Attestation {
      switch (field) {
        case "confidence": {
          const next = a.confidence + 0.01 * (1 + (salt % 5));
          return { ...a, confidence: next };
        }
        case "pool": {
          const digits = a.pool.slice(2).split("");
          const i = salt % 40;
          digits[i] = digits[i] === "0" ? "1" : "0";
          return { ...a, pool: `0x${digits.join("")}` };
        }
        default: {
          const value = Number(a[field]);
          const delta = 1 + (salt % 3);
          return { ...a, [field]: value > Number.MAX_SAFE_INTEGER - 3 ? value - delta : value + delta };
        }
      }
    }

    it("sign -> verify round-trips; any signed change breaks it; unsigned changes do not (500 runs)", async () => {
      await fc.assert(
        fc.asyncProperty(
          attestation,
          privateKey,
          fc.constantFrom(...fields),
          fc.nat(),
          fc.record(
            { symbol: fc.jsonValue({ maxDepth: 2 }), protocol: fc.string(), outcome: fc.jsonValue({ maxDepth: 1 }) },
            { requiredKeys: [] },
          ),
          async (fieldsIn, key, field, salt, unsigned) => {
            const address = privateKeyToAddress(key);
            const signature = await signAttestation({ attestation: fieldsIn, privateKey: key });
            // low-s, v in {27, 28}
            const bytes = hexToBytes(signature);
            expect(bytes.length).to.equal(65);
            expect([27, 28]).to.include(bytes[64]);
            expect(BigInt(signature.slice(0, 130).replace(/^0x.{64}/, "0x")) <= N / 2n).to.equal(true);

            const signed: Attestation = { ...fieldsIn, signature };
            const time = at(0);
            const ok = verifyAttestation({ attestation: signed, address, time });
            expect(ok.valid).to.equal(true);
            expect(ok.attester).to.equal(address);

            const tampered = tamper(signed, field, salt);
            const bad = verifyAttestation({ attestation: tampered, address, time });
            expect(bad.canonical).to.not.equal(ok.canonical);
            expect(bad.valid).to.equal(false);

            const decorated = { ...signed, ...unsigned, attester: IMPOSTOR } as Attestation;
            expect(verifyAttestation({ attestation: decorated, address, time }).valid).to.equal(true);

            // Same signed values in another accepted spelling: still valid.
            const respelled = {
              ...signed,
              chainId: String(signed.chainId),
              expiry: Number(signed.expiry),
              pool: signed.pool.toUpperCase().replace(/^0X/, "0x"),
            };
            expect(verifyAttestation({ attestation: respelled, address, time }).valid).to.equal(true);
          },
        ),
        { numRuns: 500 },
      );
    });
  });
});
