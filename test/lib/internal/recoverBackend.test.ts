import { expect } from "chai";
import fc from "fast-check";
import { ecdsaSign, publicKeyCreate } from "secp256k1";
import { type Address, bytesToHex, checksumAddress, keccak256 } from "viem";
import v1 from "../../vectors/attestation-v1.json";
import v2 from "../../vectors/attestation-v2.json";
import { BaseError } from "../../../src/errors/base";
import { parseAttestationJson } from "../../../src/lib/parseAttestationJson";
import { parseAttestationSignature } from "../../../src/lib/parseAttestationSignature";
import type { Attestation } from "../../../src/lib/types";
import { verifyAttestation } from "../../../src/lib/verifyAttestation";
import { verifyTypedAttestation } from "../../../src/lib/verifyTypedAttestation";
import { loadNativeRecover } from "../../../src/lib/internal/nativeRecover";
import { recoverAddressFromHash } from "../../../src/lib/internal/recoverAddressFromHash";
import { activeBackend, useBackend, type VerifyBackend } from "../../../src/lib/internal/recoverBackend";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
const at = (seconds: number) => new Date(seconds * 1000);
const hex32 = (value: bigint) => value.toString(16).padStart(64, "0");
const vByte = (v: number) => v.toString(16).padStart(2, "0");

/** Runs `fn` with one backend forced, then restores the previous setting. */
function withBackend<T>(backend: VerifyBackend, fn: () => T): T {
  const previous = activeBackend().setting;
  useBackend(backend);
  try {
    return fn();
  } finally {
    useBackend(previous);
  }
}

/** A result, or the thrown project error's code and one-line message: what two backends must agree on. */
function settle(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof BaseError)) throw error;
    return { threw: error.code, message: error.shortMessage };
  }
}

/** What the verifiers do with a hash and a signature string: the strict rules, then the backend, then the address. */
function outcome(hash: Uint8Array, signature: string): string {
  let parsed;
  try {
    parsed = parseAttestationSignature({ signature });
  } catch (error) {
    return `refused: ${(error as BaseError).shortMessage}`;
  }
  try {
    return recoverAddressFromHash(hash, parsed);
  } catch (error) {
    return `unrecoverable: ${(error as BaseError).code}`;
  }
}

function addressOf(key: Uint8Array): Address {
  const publicKey = publicKeyCreate(key, false);
  return checksumAddress(bytesToHex(keccak256(publicKey.subarray(1), "bytes").subarray(12)));
}

type Case = { kind: string; hash: Uint8Array; signature: string; signer: Address | null };

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const key = bytes32.map((seed) => keccak256(seed, "bytes")); // a valid secret key but with negligible probability
const scalar = (min: bigint, max: bigint) => fc.bigInt({ min, max });
const lowS = scalar(1n, HALF_N);
const anyR = scalar(1n, N - 1n);
const v = fc.constantFrom(27, 28);

/** A real signature by a random key over a random hash, with its signer. */
const signed = fc.tuple(key, bytes32).map(([secret, hash]) => {
  const { signature, recid } = ecdsaSign(hash, secret);
  return { hash, rs: bytesToHex(signature).slice(2), v: 27 + recid, signer: addressOf(secret) };
});

const cases: fc.Arbitrary<Case> = fc.oneof(
  {
    weight: 18,
    arbitrary: signed.map((s) => ({
      kind: "valid",
      hash: s.hash,
      signature: `0x${s.rs}${vByte(s.v)}`,
      signer: s.signer,
    })),
  },
  {
    weight: 6,
    arbitrary: fc.tuple(signed, bytes32).map(([s, other]) => ({
      kind: "tampered (other hash)",
      hash: other,
      signature: `0x${s.rs}${vByte(s.v)}`,
      signer: null,
    })),
  },
  {
    weight: 10,
    arbitrary: signed.map((s) => {
      const high = N - BigInt(`0x${s.rs.slice(64)}`);
      return {
        kind: "high-s twin",
        hash: s.hash,
        signature: `0x${s.rs.slice(0, 64)}${hex32(high)}${vByte(55 - s.v)}`,
        signer: null,
      };
    }),
  },
  {
    weight: 10,
    arbitrary: fc
      .tuple(
        signed,
        fc.integer({ min: 0, max: 255 }).filter((x) => x !== 27 && x !== 28),
      )
      .map(([s, bad]) => ({
        kind: "wrong v",
        hash: s.hash,
        signature: `0x${s.rs}${vByte(bad)}`,
        signer: null,
      })),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.oneof(fc.constant(0n), fc.constant(N), scalar(N, (1n << 256n) - 1n)), lowS, v, bytes32)
      .map(([r, s, vv, hash]) => ({
        kind: "r out of range (0 or >= n)",
        hash,
        signature: `0x${hex32(r)}${hex32(s)}${vByte(vv)}`,
        signer: null,
      })),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        anyR,
        fc.oneof(fc.constant(0n), fc.constant(N), scalar(HALF_N + 1n, N - 1n), scalar(N, (1n << 256n) - 1n)),
        v,
        bytes32,
      )
      .map(([r, s, vv, hash]) => ({
        kind: "s out of range (0, high, >= n)",
        hash,
        signature: `0x${hex32(r)}${hex32(s)}${vByte(vv)}`,
        signer: null,
      })),
  },
  {
    weight: 16,
    arbitrary: fc.tuple(anyR, lowS, v, bytes32).map(([r, s, vv, hash]) => ({
      kind: "random r, s in range",
      hash,
      signature: `0x${hex32(r)}${hex32(s)}${vByte(vv)}`,
      signer: null,
    })),
  },
  {
    weight: 14,
    arbitrary: fc.tuple(fc.uint8Array({ minLength: 65, maxLength: 65 }), bytes32).map(([raw, hash]) => ({
      kind: "random 65 bytes",
      hash,
      signature: bytesToHex(raw),
      signer: null,
    })),
  },
  {
    weight: 10,
    arbitrary: fc.tuple(signed, fc.integer({ min: 0, max: 5 })).map(([s, how]) => {
      const good = `${s.rs}${vByte(s.v)}`;
      const variants = [
        `0X${good.toUpperCase()}`, // accepted: the prefix and hex case are free
        good, // accepted: no prefix
        `0x${s.rs}`, // 64 bytes (EIP-2098 compact form): refused
        `0x${good}00`, // 66 bytes
        `0x${good.slice(1)}`, // odd length
        `0x${good.slice(0, 10)}zz${good.slice(12)}`, // not hex
      ];
      return { kind: "string form", hash: s.hash, signature: variants[how], signer: how < 2 ? s.signer : null };
    }),
  },
);

describe("signature recovery backends: libsecp256k1 (native) and @noble/curves (js) agree", () => {
  before(function () {
    // CI installs the package's prebuild: the differential test needs both backends.
    expect(loadNativeRecover().error, "libsecp256k1 must load for this test").to.equal(null);
  });

  it("on every v1 conformance vector (through verifyAttestation, text and object)", () => {
    for (const c of v1.cases) {
      for (const attestation of [parseAttestationJson({ text: c.attestation_json }), c.attestation]) {
        const run = () =>
          verifyAttestation({ attestation: attestation as Attestation, address: c.expectedAttester, time: at(c.now) });
        const js = withBackend("js", () => settle(run));
        const native = withBackend("native", () => settle(run));
        expect(native, c.id).to.deep.equal(js);
        if (c.expected.canonical !== null) expect((js as { valid: boolean }).valid, c.id).to.equal(c.expected.valid);
      }
    }
  });

  it("on every v2 conformance vector, and on its high-s twin (through verifyTypedAttestation)", () => {
    for (const c of v2.cases) {
      const twin = `${c.signature.slice(0, 66)}${hex32(N - BigInt(`0x${c.signature.slice(66, 130)}`))}${c.signature.endsWith("1b") ? "1c" : "1b"}`;
      for (const signature of [c.signature, twin]) {
        const run = () =>
          verifyTypedAttestation({
            attestation: c.attestation as Attestation,
            registry: c.registry,
            address: v2.attester.address,
            signature,
            time: at(0),
          });
        const js = withBackend("js", () => settle(run));
        expect(
          withBackend("native", () => settle(run)),
          c.id,
        ).to.deep.equal(js);
        expect((js as { valid: boolean }).valid, c.id).to.equal(signature === c.signature);
      }
    }
  });

  it("on 10,000 generated signatures: real, tampered, high-s, wrong v, r or s out of range, random bytes", () => {
    const sample = fc.sample(cases, { seed: 20260512, numRuns: 10_000 });
    const js = withBackend("js", () => sample.map((c) => outcome(c.hash, c.signature)));
    const native = withBackend("native", () => sample.map((c) => outcome(c.hash, c.signature)));

    const tally = new Map<string, { cases: number; recovered: number; refused: number; unrecoverable: number }>();
    for (const [i, c] of sample.entries()) {
      expect(native[i], `${c.kind}: ${c.signature}`).to.equal(js[i]);
      if (c.signer !== null) expect(js[i], `${c.kind}: recovers its signer`).to.equal(c.signer);
      const row = tally.get(c.kind) ?? { cases: 0, recovered: 0, refused: 0, unrecoverable: 0 };
      row.cases++;
      if (js[i].startsWith("refused")) row.refused++;
      else if (js[i].startsWith("unrecoverable")) row.unrecoverable++;
      else row.recovered++;
      tally.set(c.kind, row);
    }
    console.log("      kind | cases | recovered | refused by the strict rules | unrecoverable");
    for (const [kind, row] of tally)
      console.log(`      ${kind} | ${row.cases} | ${row.recovered} | ${row.refused} | ${row.unrecoverable}`);

    // Each rule is exercised, and the cases that reach the backends include keys found and keys not found.
    const get = (kind: string) => tally.get(kind)!;
    for (const kind of ["high-s twin", "wrong v", "r out of range (0 or >= n)", "s out of range (0, high, >= n)"])
      expect(get(kind).refused, kind).to.equal(get(kind).cases).and.to.be.greaterThan(300);
    expect(get("valid").recovered).to.equal(get("valid").cases);
    expect(get("tampered (other hash)").recovered).to.be.greaterThan(300);
    expect(get("random r, s in range").recovered).to.be.greaterThan(300);
    expect(get("random r, s in range").unrecoverable).to.be.greaterThan(300);
    expect(get("random 65 bytes").refused).to.be.greaterThan(900);
  });
});
