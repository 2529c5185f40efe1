import { expect } from "chai";
import vectors from "../vectors/attestation-v1.json";
import { malleate } from "../vectors/signatures";
import { InvalidExpectedAddressError, InvalidTimeError } from "../../src/errors/attestation";
import { BaseError } from "../../src/errors/base";
import { parseAttestationJson } from "../../src/lib/parseAttestationJson";
import type { Attestation } from "../../src/lib/types";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { verifyAttestations } from "../../src/lib/verifyAttestations";

const ATTESTER = vectors.attester.address;
const at = (seconds: number) => new Date(seconds * 1000);
const b01 = vectors.cases[0];

describe("verifyAttestations", () => {
  it("gives, for every conformance vector, what verifyAttestation gives (text and object inputs)", () => {
    for (const c of vectors.cases) {
      const [fromText, fromObject] = verifyAttestations({
        attestations: [c.attestation_json, c.attestation],
        address: c.expectedAttester,
        time: at(c.now),
      });
      expect(fromText, c.id).to.deep.equal(fromObject);
      let single: unknown;
      try {
        single = {
          ...verifyAttestation({
            attestation: parseAttestationJson({ text: c.attestation_json }) as Attestation,
            address: c.expectedAttester,
            time: at(c.now),
          }),
          error: null,
          errorCode: null,
        };
      } catch (error) {
        const e = error as BaseError;
        single = {
          valid: false,
          attester: null,
          expired: false,
          canonical: null,
          error: e.shortMessage,
          errorCode: e.code,
        };
      }
      expect(fromText, c.id).to.deep.equal(single);
      expect(fromText.canonical, c.id).to.equal(c.expected.canonical);
    }
  });

  it("keeps input order and goes on past malformed items, each with its error", () => {
    const expired = vectors.cases.find((c) => c.expected.valid && c.expected.expired)!;
    const tampered = b01.attestation_json.replace('"horizon":30', '"horizon":31');
    const results = verifyAttestations({
      attestations: [
        b01.attestation_json,
        "{not json",
        expired.attestation_json,
        b01.attestation_json.replace('{"chainId":1,', '{"chainId":1,"chainId":2,'),
        tampered,
        null,
        JSON.stringify({ ...b01.attestation, signature: malleate(b01.attestation.signature) }),
        JSON.stringify({ ...b01.attestation, signature: undefined }),
        b01.attestation,
      ],
      address: ATTESTER,
      time: at(vectors.now),
    });
    const summary = results.map((r) => [r.valid, r.expired, r.attester === ATTESTER, r.errorCode]);
    expect(summary).to.deep.equal([
      [true, false, true, null],
      [false, false, false, "JSON_INVALID"],
      [true, true, true, null],
      [false, false, false, "JSON_DUPLICATE_KEY"],
      [false, false, false, null], // tampered: authentic of nobody we expect, not malformed
      [false, false, false, "ATTESTATION_NOT_OBJECT"],
      [false, false, false, null], // high-s: refused by the strict rules, attester null
      [false, false, false, "ATTESTATION_FIELD_MISSING"],
      [true, false, true, null],
    ]);
    expect(results[1].error).to.match(/^Input is not valid JSON/);
    expect(results[3].error).to.match(/repeats the member name "chainId"/);
    expect(results[4].attester).to.be.a("string").and.not.equal(ATTESTER);
    expect(results[6].attester).to.equal(null);
    expect(results[7].error).to.equal('Attestation field "signature" is missing.');
    for (const r of results) if (r.error !== null) expect(r.error).not.to.contain("\n");
  });

  it("takes any iterable, once, and returns [] for none", () => {
    function* lines() {
      yield b01.attestation_json;
      yield b01.attestation_json;
    }
    expect(verifyAttestations({ attestations: lines(), address: ATTESTER, time: at(vectors.now) })).to.have.length(2);
    expect(verifyAttestations({ attestations: [], address: ATTESTER })).to.deep.equal([]);
  });

  it("throws for a bad expected address or clock, before looking at any attestation", () => {
    expect(() => verifyAttestations({ attestations: ["{not json"], address: "0x1234" })).to.throw(
      InvalidExpectedAddressError,
    );
    expect(() =>
      verifyAttestations({ attestations: ["{not json"], address: ATTESTER, time: new Date(Number.NaN) }),
    ).to.throw(InvalidTimeError);
  });
});
