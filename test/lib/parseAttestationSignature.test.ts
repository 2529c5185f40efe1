import { expect } from "chai";
import vectors from "../vectors/attestation-v1.json";
import { InvalidAttestationSignatureError } from "../../src/errors/attestation";
import { parseAttestationSignature } from "../../src/lib/parseAttestationSignature";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N / 2n;
const good = vectors.cases[0].attestation.signature!;
const hex32 = (n: bigint) => n.toString(16).padStart(64, "0");
const build = (r: bigint, s: bigint, v: number) => `0x${hex32(r)}${hex32(s)}${v.toString(16).padStart(2, "0")}`;
const parse = (signature: unknown) => parseAttestationSignature({ signature });
const rejects = (signature: unknown, reason: RegExp) =>
  expect(() => parse(signature), String(signature))
    .to.throw(InvalidAttestationSignatureError)
    .with.property("reason")
    .that.matches(reason);

describe("parseAttestationSignature", () => {
  it("parses r, s, v and yParity", () => {
    const sig = parse(good);
    expect(sig.r).to.equal(BigInt(good.slice(0, 66)));
    expect(sig.s).to.equal(BigInt(`0x${good.slice(66, 130)}`));
    expect(sig.v).to.equal(27);
    expect(sig.yParity).to.equal(0);
    expect(sig.serialized).to.equal(good.toLowerCase());
    expect(parse(build(1n, 1n, 28))).to.include({ v: 28, yParity: 1 });
  });

  it("accepts 0x, 0X or no prefix and any case", () => {
    const body = good.slice(2);
    for (const form of [`0x${body}`, `0X${body}`, body, `0x${body.toUpperCase()}`, `0X${body.toUpperCase()}`])
      expect(parse(form).serialized, form).to.equal(good.toLowerCase());
  });

  it("accepts the boundaries r = n - 1, s = n/2 and r = s = 1", () => {
    expect(parse(build(N - 1n, HALF_N, 27)).s).to.equal(HALF_N);
    expect(parse(build(1n, 1n, 27)).r).to.equal(1n);
  });

  it("rejects high-s (s > n/2), as on chain", () => {
    rejects(build(1n, HALF_N + 1n, 27), /high-s/);
    rejects(build(1n, N - 1n, 28), /high-s/);
    const highS = vectors.cases.find((c) => c.id === "S04-high-s")!.attestation.signature;
    rejects(highS, /high-s/);
  });

  it("rejects r = 0, r >= n and s = 0 (and s >= n as high-s)", () => {
    rejects(build(0n, 1n, 27), /r is not/);
    rejects(build(N, 1n, 27), /r is not/);
    rejects(build((1n << 256n) - 1n, 1n, 27), /r is not/);
    rejects(build(1n, 0n, 27), /s is zero/);
    rejects(build(1n, N, 27), /high-s/);
  });

  it("rejects v outside {27, 28}", () => {
    for (const v of [0, 1, 26, 29, 35, 255]) rejects(build(1n, 1n, v), new RegExp(`v is ${v}`));
  });

  it("rejects wrong lengths, the EIP-2098 compact form and non-hex", () => {
    const compact = vectors.cases.find((c) => c.id === "S05-eip2098-compact")!.attestation.signature;
    rejects(compact, /64 bytes.*EIP-2098/);
    rejects(good.slice(0, -2), /64 bytes/);
    rejects(`${good}00`, /66 bytes/);
    rejects(good.slice(0, -1), /odd number/);
    rejects("0x", /0 bytes/);
    rejects("", /0 bytes/);
    rejects(`${good.slice(0, -2)}zz`, /not hexadecimal/);
    rejects(` ${good}`, /not hexadecimal/);
    rejects(`${good}\n`, /not hexadecimal/);
    rejects(`0x0x${good.slice(4)}`, /not hexadecimal/);
  });

  it("rejects non-strings", () => {
    rejects(undefined, /missing/);
    for (const value of [null, 1, {}, [good], new Uint8Array(65)]) rejects(value, /must be a hex string/);
  });
});
