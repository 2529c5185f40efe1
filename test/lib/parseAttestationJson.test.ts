import { expect } from "chai";
import fc from "fast-check";
import vectors from "../vectors/attestation-v1.json";
import { DuplicateJsonKeyError, InvalidIntegerFieldError, InvalidJsonError } from "../../src/errors/attestation";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";

const parse = (text: string) => parseAttestationJson({ text });

describe("parseAttestationJson", () => {
  it("parses every vector's attestation_json like JSON.parse", () => {
    for (const c of vectors.cases)
      expect(parse(c.attestation_json), c.id).to.deep.equal(JSON.parse(c.attestation_json));
  });

  it("agrees with JSON.parse on arbitrary JSON without repeated keys (property)", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: "small" }), (text) => {
        expect(parse(text)).to.deep.equal(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: "small" }), (value) => {
        const text = JSON.stringify(value, null, 2);
        expect(parse(text)).to.deep.equal(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("decodes every string like JSON.parse: escapes, \\u escapes of any code unit, lone surrogates (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        (raw, units) => {
          const escaped = [...units].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
          for (const text of [JSON.stringify(raw), `"${escaped}"`, `"${escaped.toUpperCase().replace(/\\U/g, "\\u")}"`])
            expect(parse(text), text).to.equal(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  describe("integer fields (chainId, expiry, horizon, issuedAt) of the top-level object", () => {
    const fields = ["chainId", "expiry", "horizon", "issuedAt"] as const;

    it("rejects a number whose text has a fraction, an exponent or a sign, naming the field", () => {
      const tokens = [
        "8453.0",
        "8453.0000000000001",
        "1767225600.0000001",
        "8.453e3",
        "8453e0",
        "8453E+0",
        "1e3",
        "-0",
        "-0.0",
        "-0e0",
        "0.0",
        "0e5",
        "-1",
        "-8453",
      ];
      for (const field of fields)
        for (const token of tokens) {
          const text = `{"pool":"0x1","${field}":${token},"confidence":0.85}`;
          expect(() => JSON.parse(text)).not.to.throw(); // JSON.parse would hand over an integer (or -0)
          expect(() => parse(text), text)
            .to.throw(InvalidIntegerFieldError)
            .that.includes({ field, code: "ATTESTATION_INTEGER_INVALID", position: text.indexOf(token, 12) });
        }
      expect(() => parse('{"chainId":8453.0}')).to.throw(
        InvalidIntegerFieldError,
        'Attestation field "chainId" is invalid: the JSON number is written with a fraction; write the integer as plain digits.',
      );
      expect(() => parse('{"expiry":1.5e3}')).to.throw(
        InvalidIntegerFieldError,
        /written with a fraction and an exponent/,
      );
      expect(() => parse('{"expiry":-1.5e3}')).to.throw(InvalidIntegerFieldError, /"expiry" is invalid: negative\./);
      for (const token of ["-0", "-0.0", "-0e0", "-0.0E+7"])
        expect(() => parse(`{"horizon":${token}}`), token).to.throw(
          InvalidIntegerFieldError,
          /"horizon" is invalid: negative zero \(a sign\)\./,
        );
    });

    it("rejects plain digits above 2^53 - 1, which JSON.parse would round", () => {
      for (const token of ["9007199254740992", "9007199254740993", "12345678901234567890", "1".repeat(400)])
        expect(() => parse(`{"horizon":${token}}`), token)
          .to.throw(InvalidIntegerFieldError, /larger than 2\^53 - 1/)
          .with.property("field", "horizon");
      expect((parse('{"horizon":9007199254740991}') as { horizon: number }).horizon).to.equal(9007199254740991);
    });

    it("shows the number as written, shortened, in metaMessages", () => {
      const error = (() => {
        try {
          parse(`{"issuedAt":1${"0".repeat(200)}.5}`);
        } catch (e) {
          return e as InvalidIntegerFieldError;
        }
      })();
      expect(error).to.be.instanceOf(InvalidIntegerFieldError);
      expect(error!.metaMessages![0]).to.match(/^Received: 10{76}\.\.\. \(JSON text at position 12\)$/);
    });

    it("accepts plain digits, and leaves strings, confidence and every other number alone", () => {
      const text =
        '{"chainId":8453,"expiry":0,"horizon":"30","issuedAt":9007199254740991,"confidence":8.5e-1,' +
        '"symbol":1.0,"eip712":{"message":{"chainId":1.0,"expiresAt":-0}},"list":[{"expiry":1e3}]}';
      expect(parse(text)).to.deep.equal(JSON.parse(text));
      expect(parse('{"confidence":-0}')).to.deep.equal({ confidence: -0 });
      expect(parse('[{"chainId":1.0}]')).to.deep.equal([{ chainId: 1 }]); // not an attestation object
      expect(parse('{"chainId":"8453.0"}')).to.deep.equal({ chainId: "8453.0" }); // strings: parseIntegerField's job
    });
  });

  it("rejects a repeated member name, at any depth and however it is spelled", () => {
    const cases: [string, string, string][] = [
      ['{"pool":"0x1","pool":"0x2"}', "pool", ""],
      ['{"confidence":0.1,"chainId":1,"confidence":0.9}', "confidence", ""],
      ['{"a":{"b":1,"b":1}}', "b", "/a"],
      ['[{"x":1},{"y":2,"y":3}]', "y", "/1"],
      ['{"a":1,"\\u0061":2}', "a", ""],
      ['{"__proto__":1,"__proto__":2}', "__proto__", ""],
      ['{"":1,"":2}', "", ""],
    ];
    for (const [text, key, path] of cases) {
      expect(() => parse(text), text)
        .to.throw(DuplicateJsonKeyError)
        .that.includes({ key, path });
    }
    expect(() => parse('{"a":1,"a":1}'))
      .to.throw(DuplicateJsonKeyError)
      .with.property("code", "JSON_DUPLICATE_KEY");
  });

  it("accepts the same name in different objects", () => {
    expect(parse('{"a":{"a":1},"b":{"a":2}}')).to.deep.equal({ a: { a: 1 }, b: { a: 2 } });
  });

  it("keeps __proto__ as an own property, like JSON.parse", () => {
    const value = parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
    expect(Object.keys(value)).to.deep.equal(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it("rejects text that is not JSON, with the position", () => {
    const bad = [
      "",
      " ",
      "{",
      "{}}",
      "{'a':1}",
      '{"a":1,}',
      "[1,]",
      "01",
      "1.",
      ".5",
      "+1",
      "NaN",
      "Infinity",
      "tru",
      '"\u0001"',
      '"\\x41"',
      '{"a" 1}',
      "[1 2]",
      "\ufeff{}",
      "{} x",
      "undefined",
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), `JSON.parse(${JSON.stringify(text)})`).to.throw();
      expect(() => parse(text), JSON.stringify(text))
        .to.throw(InvalidJsonError)
        .with.property("position")
        .that.is.a("number");
    }
  });

  it("rejects very deep nesting instead of overflowing the stack", () => {
    expect(() => parse("[".repeat(100_000) + "]".repeat(100_000))).to.throw(InvalidJsonError, /nesting/);
    expect(parse("[".repeat(100) + "]".repeat(100))).to.be.an("array");
  });

  it("parses a 16-million-character string without overflowing the stack (a backtracking regex did)", () => {
    const long = "a".repeat(16_000_000);
    const value = parse(`{"x":"${long}"}`) as { x: string };
    expect(value.x.length).to.equal(long.length);
    expect(value.x === long).to.equal(true);
    const escapes = '\\n\\u00e9\\"'.repeat(1_000_000);
    expect(parse(`["${escapes}"]`)).to.deep.equal(JSON.parse(`["${escapes}"]`));
  });

  it("rejects a long unterminated string or a long string with a bad escape with InvalidJsonError", () => {
    const long = "a".repeat(16_000_000);
    expect(() => parse(`{"x":"${long}`))
      .to.throw(InvalidJsonError, /unterminated string/)
      .with.property("position", 5);
    expect(() => parse(`{"x":"${long}\\x"}`))
      .to.throw(InvalidJsonError, /invalid escape/)
      .with.property("position", 6 + long.length);
    expect(() => parse(`["${long}\u0001"]`)).to.throw(InvalidJsonError, /control character/);
  });

  it("scans long numbers and long runs of whitespace in one pass", () => {
    const digits = "1".repeat(1_000_000);
    expect(parse(`[${digits}]`)).to.deep.equal(JSON.parse(`[${digits}]`));
    expect(parse(`${" ".repeat(16_000_000)}[1]\n`)).to.deep.equal([1]);
    expect(parse(`[-0.5e-3,1E+2,0]`)).to.deep.equal([-0.0005, 100, 0]);
  });

  it("rejects a non-string input", () => {
    expect(() => parseAttestationJson({ text: undefined as unknown as string })).to.throw(InvalidJsonError);
  });
});
