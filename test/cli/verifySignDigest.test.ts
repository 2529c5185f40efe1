import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { Hex } from "viem";
import { main } from "../../src/cli/main";
import { loadPrivateKey } from "../../src/cli/shared/keys";
import type { CliIo } from "../../src/cli/types";
import { InvalidPrivateKeyError, MissingPrivateKeyError, UnreadableKeyFileError } from "../../src/errors/attestation";
import type { Attestation } from "../../src/lib/types";
import { verifyTypedAttestation } from "../../src/lib/verifyTypedAttestation";
import v1 from "../vectors/attestation-v1.json";
import v2 from "../vectors/attestation-v2.json";

const KEY = v1.attester.privateKey;
const ATTESTER = v1.attester.address;
const dir = mkdtempSync(join(tmpdir(), "attest-sign-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const b01 = v1.cases[0];
const { signature: _s, attester: _a, ...unsigned } = b01.attestation;
const unsignedPath = () => file("unsigned.json", JSON.stringify(unsigned));
const registry = v2.cases[0].registry;

async function run(argv: string[], env: NodeJS.ProcessEnv = {}, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), readStdin: async () => stdin, env };
  const code = await main(argv, io);
  return { code, out, err, all: [...out, ...err].join("\n") };
}

describe("attest sign", () => {
  it("signs v1 with ATTESTER_PRIVATE_KEY: the vector's signature, verifiable by attest verify", async () => {
    const { code, out, all } = await run(["sign", unsignedPath()], { ATTESTER_PRIVATE_KEY: KEY });
    expect(code).to.equal(0);
    expect(out).to.have.length(1);
    const signed = JSON.parse(out[0]) as Attestation;
    expect(signed.signature).to.equal(b01.attestation.signature);
    expect(signed.attester).to.equal(ATTESTER);
    expect(signed.symbol).to.equal("USDC/WETH");
    expect(all).not.to.contain(KEY.slice(2));

    const verified = await run(["verify", "-", "--attester", ATTESTER, "--now", String(v1.now)], {}, out[0]);
    expect(verified.code).to.equal(0);
  });

  it("reads the key from --key-file or ATTESTER_KEY_FILE", async () => {
    const keyFile = file("key.txt", `  ${KEY}\n`);
    for (const [argv, env] of [
      [["sign", unsignedPath(), "--key-file", keyFile], {}],
      [["sign", unsignedPath()], { ATTESTER_KEY_FILE: keyFile }],
      // --key-file overrides the environment
      [["sign", unsignedPath(), "--key-file", keyFile], { ATTESTER_PRIVATE_KEY: v1.impostor.privateKey }],
    ] as [string[], NodeJS.ProcessEnv][]) {
      const { code, out } = await run(argv, env);
      expect(code).to.equal(0);
      expect((JSON.parse(out[0]) as Attestation).signature).to.equal(b01.attestation.signature);
    }
  });

  it("signs v2 with --v2: the eip712 block verifies and matches the pinned vector", async () => {
    const args = ["sign", unsignedPath(), "--v2", "--registry", registry.address, "--chain", String(registry.chainId)];
    const { code, out } = await run(args, { ATTESTER_PRIVATE_KEY: KEY });
    expect(code).to.equal(0);
    const signed = JSON.parse(out[0]) as Attestation & {
      eip712: { signature: string; message: unknown; domain: unknown };
    };
    expect(signed.eip712.signature).to.equal(v2.cases[0].signature);
    expect(signed.eip712.message).to.deep.equal(v2.cases[0].message);
    expect(signed.eip712.domain).to.deep.equal({
      name: "AttestationRegistry",
      version: "1",
      chainId: String(registry.chainId),
      verifyingContract: registry.address,
    });
    expect(signed.signature).to.equal(undefined); // the input had no v1 signature; --v2 adds only the eip712 block
    expect(
      verifyTypedAttestation({ attestation: signed, registry, address: ATTESTER, time: new Date(0) }).valid,
    ).to.equal(true);
  });

  it("fails in one line without a key, with a bad key or an unreadable key file, never echoing the key", async () => {
    const missing = await run(["sign", unsignedPath()]);
    expect(missing.code).to.equal(1);
    expect(missing.err).to.deep.equal(["attest sign: No attester private key configured."]);

    const badKey = `0x${"ab".repeat(31)}`;
    const bad = await run(["sign", unsignedPath()], { ATTESTER_PRIVATE_KEY: badKey });
    expect(bad.code).to.equal(1);
    expect(bad.err).to.have.length(1);
    expect(bad.err[0]).to.match(/ATTESTER_PRIVATE_KEY is invalid: 62 hex digits/);
    expect(bad.all).not.to.contain("abababab");

    const unreadable = await run(["sign", unsignedPath(), "--key-file", join(dir, "nope")]);
    expect(unreadable.code).to.equal(1);
    expect(unreadable.err[0]).to.match(/Cannot read key file .*nope.* \(ENOENT\)/);
  });

  it("fails in one line for a malformed attestation", async () => {
    const path = file("bad.json", JSON.stringify({ ...unsigned, horizon: -1 }));
    const { code, err } = await run(["sign", path], { ATTESTER_PRIVATE_KEY: KEY });
    expect(code).to.equal(1);
    expect(err).to.deep.equal(['attest sign: Attestation field "horizon" is invalid: negative.']);
  });

  it("refuses an integer field written with a fraction or exponent in the JSON text", async () => {
    for (const [field, token] of [
      ["chainId", "8453.0"],
      ["expiry", "1.7672256e9"],
    ]) {
      const path = file(
        "frac.json",
        JSON.stringify({ ...unsigned, [field]: 1 }).replace(`"${field}":1`, `"${field}":${token}`),
      );
      const { code, out, err } = await run(["sign", path], { ATTESTER_PRIVATE_KEY: KEY });
      expect(code).to.equal(1);
      expect(out).to.deep.equal([]);
      expect(err).to.have.length(1);
      expect(err[0]).to.match(
        new RegExp(`^attest sign: Attestation field "${field}" is invalid: the JSON number is written with`),
      );
    }
  });

  it("exits 64 for --registry without --v2, --v2 without a registry, or no file", async () => {
    expect((await run(["sign", unsignedPath(), "--registry", registry.address])).code).to.equal(64);
    expect((await run(["sign", unsignedPath(), "--v2"], { ATTESTER_PRIVATE_KEY: KEY })).code).to.equal(64);
    expect((await run(["sign"], { ATTESTER_PRIVATE_KEY: KEY })).code).to.equal(64);
  });
});

describe("attest digest", () => {
  it("prints the pinned v2 digest (the registry's hashAttestation)", async () => {
    for (const c of v2.cases.slice(0, 3)) {
      const path = file(`${c.id}.json`, JSON.stringify(c.attestation));
      const { code, out } = await run([
        "digest",
        path,
        "--registry",
        c.registry.address,
        "--chain",
        String(c.registry.chainId),
      ]);
      expect(code).to.equal(0);
      expect(out).to.deep.equal([c.digest]);
    }
  });

  it("takes the registry from REGISTRY_ADDRESS and REGISTRY_CHAIN_ID", async () => {
    const c = v2.cases[0];
    const { code, out } = await run(
      ["digest", "-"],
      { REGISTRY_ADDRESS: c.registry.address, REGISTRY_CHAIN_ID: String(c.registry.chainId) },
      JSON.stringify(c.attestation),
    );
    expect(code).to.equal(0);
    expect(out).to.deep.equal([c.digest]);
  });

  it("exits 64 without a registry or with a malformed one, 1 for a malformed attestation", async () => {
    const path = file("a.json", JSON.stringify(unsigned));
    expect((await run(["digest", path])).code).to.equal(64);
    expect((await run(["digest", path, "--registry", "0x12", "--chain", "1"])).code).to.equal(64);
    expect((await run(["digest", path, "--registry", registry.address, "--chain", "0x1"])).code).to.equal(64);
    const bad = file("b.json", JSON.stringify({ ...unsigned, confidence: 700 }));
    const result = await run(["digest", bad, "--registry", registry.address, "--chain", "1"]);
    expect(result.code).to.equal(1);
    expect(result.err[0]).to.match(/"confidence" does not fit uint16/);
  });
});

describe("loadPrivateKey", () => {
  it("normalizes the key (prefix optional, any case, whitespace trimmed)", () => {
    const bare = KEY.slice(2).toUpperCase();
    expect(loadPrivateKey({ env: { ATTESTER_PRIVATE_KEY: bare } })).to.equal(KEY);
    expect(loadPrivateKey({ env: { ATTESTER_PRIVATE_KEY: ` ${KEY}\n` } })).to.equal(KEY);
  });

  it("refuses ambiguous or missing configuration with typed errors", () => {
    expect(() => loadPrivateKey({ env: { ATTESTER_PRIVATE_KEY: KEY, ATTESTER_KEY_FILE: "/x" } })).to.throw(
      InvalidPrivateKeyError,
      /both ATTESTER_PRIVATE_KEY and ATTESTER_KEY_FILE/,
    );
    expect(() => loadPrivateKey({ env: {} })).to.throw(MissingPrivateKeyError);
    expect(() => loadPrivateKey({ env: { ATTESTER_PRIVATE_KEY: "" } })).to.throw(MissingPrivateKeyError);
    expect(() => loadPrivateKey({ keyFile: join(dir, "missing"), env: {} })).to.throw(UnreadableKeyFileError);
    const zero = file("zero.txt", "0".repeat(64));
    expect(() => loadPrivateKey({ keyFile: zero, env: {} })).to.throw(InvalidPrivateKeyError, /out of range/);
  });

  it("returns a key usable by viem", () => {
    const key: Hex = loadPrivateKey({ keyFile: file("k.txt", KEY), env: {} });
    expect(key).to.equal(KEY);
  });
});
