import { expect } from "chai";
import { parseSignature, serializeSignature, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { formatSiweMessage } from "../../src/auth/formatSiweMessage";
import { parseSiweMessage } from "../../src/auth/parseSiweMessage";
import { parseSiweSignature } from "../../src/auth/parseSiweSignature";
import { safeNextPath } from "../../src/auth/safeNextPath";
import { InvalidSiweMessageError, SiweSignatureMalformedError } from "../../src/errors/siwe";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const BASE = {
  domain: "127.0.0.1:8080",
  address: account.address,
  statement: "Sign in to the attestation dapp.",
  uri: "http://127.0.0.1:8080/app/",
  version: "1" as const,
  chainId: 1,
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: new Date("2026-01-01T00:00:00.000Z"),
};
const TEXT = createSiweMessage(BASE);

function fieldOf(message: string): string {
  try {
    parseSiweMessage({ message });
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidSiweMessageError);
    return (error as InvalidSiweMessageError).field;
  }
  throw new Error("expected the parser to refuse the message");
}

function reasonOf(signature: unknown): string {
  try {
    parseSiweSignature({ signature });
  } catch (error) {
    expect(error).to.be.instanceOf(SiweSignatureMalformedError);
    expect((error as SiweSignatureMalformedError).code).to.equal("SIGNATURE_MALFORMED");
    return (error as SiweSignatureMalformedError).reason;
  }
  throw new Error("expected the signature to be refused");
}

describe("parseSiweMessage (strict EIP-4361)", function () {
  it("reads viem's createSiweMessage output, and formatSiweMessage writes the same text back", function () {
    const fields = parseSiweMessage({ message: TEXT });
    expect(fields).to.deep.equal({ ...BASE, issuedAt: "2026-01-01T00:00:00.000Z" });
    expect(formatSiweMessage({ fields })).to.equal(TEXT);
  });

  it("reads every optional field, an empty Request ID and an empty resource list", function () {
    const full = createSiweMessage({
      ...BASE,
      scheme: "http",
      expirationTime: new Date("2026-01-02T00:00:00Z"),
      notBefore: new Date("2025-12-31T00:00:00Z"),
      requestId: "req-1",
      resources: ["https://example.com/a", "ipfs://bafy"],
    });
    expect(parseSiweMessage({ message: full })).to.include({ scheme: "http", requestId: "req-1" });
    const emptyRequestId = TEXT + "\nRequest ID: ";
    expect(parseSiweMessage({ message: emptyRequestId }).requestId).to.equal("");
    expect(parseSiweMessage({ message: TEXT + "\nResources:" }).resources).to.deep.equal([]);
  });

  it("refuses CR line breaks, a trailing line break and anything after the last field", function () {
    expect(fieldOf(TEXT.replace(/\n/g, "\r\n"))).to.equal("message");
    expect(fieldOf(TEXT + "\n")).to.equal("message");
    expect(fieldOf(TEXT + "\nExtra: 1")).to.equal("message");
    expect(fieldOf(TEXT + "\nRequest ID: a\nRequest ID: b")).to.equal("message");
  });

  it("refuses an all-lower-case address (viem's isAddress would accept it) and an all-upper-case one", function () {
    expect(fieldOf(TEXT.replace(account.address, account.address.toLowerCase()))).to.equal("address");
    expect(fieldOf(TEXT.replace(account.address, "0x" + account.address.slice(2).toUpperCase()))).to.equal("address");
  });

  it("refuses a domain with a path, a space or no host", function () {
    expect(fieldOf(TEXT.replace("127.0.0.1:8080 wants", "127.0.0.1:8080/app wants"))).to.equal("domain");
    expect(fieldOf(TEXT.replace("127.0.0.1:8080 wants", "a b wants"))).to.equal("domain");
    expect(fieldOf(TEXT.replace("127.0.0.1:8080 wants", "user@:8080 wants"))).to.equal("domain");
    expect(fieldOf(TEXT.replace("127.0.0.1:8080 wants", "[::g] wants"))).to.equal("domain");
  });

  it("reads IPv6 literals (with an IPv4 tail too) and refuses malformed ones", function () {
    for (const host of ["[::1]", "[2001:db8::8:800:200c:417a]", "[::ffff:192.0.2.1]", "[1:2:3:4:5:6:7:8]"]) {
      expect(parseSiweMessage({ message: TEXT.replace("127.0.0.1:8080 wants", `${host}:8080 wants`) }).domain).to.equal(
        `${host}:8080`,
      );
    }
    for (const host of ["[1:2:3:4:5:6:7:8:9]", "[1::2::3]", "[:1::]", "[::ffff:300.0.0.1]", "[fe80::1%eth0]"]) {
      expect(fieldOf(TEXT.replace("127.0.0.1:8080 wants", `${host} wants`))).to.equal("domain");
    }
  });

  it("refuses a statement with characters outside RFC 3986 and an empty statement line", function () {
    expect(fieldOf(TEXT.replace("Sign in to the attestation dapp.", 'Say "hi"'))).to.equal("statement");
    expect(fieldOf(TEXT.replace("Sign in to the attestation dapp.", "100% sure"))).to.equal("statement");
    expect(fieldOf(TEXT.replace("\n\nSign in to the attestation dapp.\n", "\n\n\n"))).to.equal("uri");
  });

  it("refuses a relative URI, a chain id with a leading zero or beyond 2^53 − 1, and a version 01", function () {
    expect(fieldOf(TEXT.replace("URI: http://127.0.0.1:8080/app/", "URI: /app/"))).to.equal("uri");
    expect(fieldOf(TEXT.replace("Chain ID: 1", "Chain ID: 01"))).to.equal("chainId");
    expect(fieldOf(TEXT.replace("Chain ID: 1", "Chain ID: 9007199254740993"))).to.equal("chainId");
    expect(fieldOf(TEXT.replace("Version: 1", "Version: 01"))).to.equal("version");
  });

  it("reads RFC 3339 strictly: real dates only, upper-case T and Z, no leap second", function () {
    const at = (value: string) => TEXT.replace("2026-01-01T00:00:00.000Z", value);
    expect(parseSiweMessage({ message: at("2024-02-29T12:00:00+05:30") }).issuedAt).to.equal(
      "2024-02-29T12:00:00+05:30",
    );
    for (const bad of [
      "2023-02-29T00:00:00Z",
      "2100-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T00:00:60Z",
      "2026-01-01t00:00:00Z",
      "2026-01-01T00:00:00z",
      "2026-01-01T00:00:00+24:00",
      "2026-01-01T00:00:00",
      "2026-01-01 00:00:00Z",
    ]) {
      expect(fieldOf(at(bad)), bad).to.equal("issuedAt");
    }
  });
});

describe("formatSiweMessage", function () {
  it("prints timestamps as given (viem would re-print …00Z as …00.000Z)", function () {
    const fields = { ...parseSiweMessage({ message: TEXT }), issuedAt: "2026-01-01T00:00:00Z" };
    expect(formatSiweMessage({ fields })).to.contain("\nIssued At: 2026-01-01T00:00:00Z");
  });

  it("refuses an unknown field and a statement that would change the text's structure", function () {
    const fields = parseSiweMessage({ message: TEXT });
    expect(() => formatSiweMessage({ fields: { ...fields, extra: "x" } as never })).to.throw(InvalidSiweMessageError);
    expect(() => formatSiweMessage({ fields: { ...fields, statement: "a\n\nURI: http://evil.example" } })).to.throw(
      InvalidSiweMessageError,
    );
  });
});

describe("parseSiweSignature (EOA only)", function () {
  let signature: Hex;
  before(async function () {
    signature = await account.signMessage({ message: TEXT });
  });

  it("accepts v = 27/28 and v = 0/1, normalized to 27/28", function () {
    const { r, s, yParity } = parseSignature(signature);
    const v01 = serializeSignature({ r, s, yParity }).slice(0, 130) + (yParity === 0 ? "00" : "01");
    expect(parseSiweSignature({ signature: v01 }).normalized).to.equal(signature.toLowerCase());
    expect(parseSiweSignature({ signature }).yParity).to.equal(yParity);
  });

  it("refuses the 64-byte EIP-2098 form, ERC-6492 wrappers and other lengths", function () {
    expect(reasonOf(signature.slice(0, 130))).to.match(/EIP-2098/);
    const wrapped = signature + "00".repeat(64) + "6492".repeat(16);
    expect(reasonOf(wrapped)).to.match(/ERC-6492/);
    expect(reasonOf(signature + "00")).to.match(/66 bytes/);
    expect(reasonOf(signature + "0")).to.match(/odd number/);
  });

  it("refuses v outside {0, 1, 27, 28}, r = 0, r ≥ n, s = 0 and high s", function () {
    for (const v of ["02", "1d", "25", "26", "ff"]) expect(reasonOf(signature.slice(0, 130) + v)).to.match(/^v is/);
    const { s } = parseSignature(signature);
    const sHex = s.slice(2);
    expect(reasonOf(`0x${"00".repeat(32)}${sHex}1b`)).to.match(/^r is/);
    expect(reasonOf(`0x${N.toString(16)}${sHex}1b`)).to.match(/^r is/);
    expect(reasonOf(`${signature.slice(0, 66)}${"00".repeat(32)}1b`)).to.match(/s is zero/);
    const high = (N - BigInt(s)).toString(16).padStart(64, "0");
    expect(reasonOf(`${signature.slice(0, 66)}${high}1b`)).to.match(/high-s/);
  });

  it("refuses what is not 0x-prefixed hex", function () {
    expect(reasonOf(signature.slice(2))).to.match(/0x followed by/);
    expect(reasonOf(signature.replace(/.$/, "g"))).to.match(/0x followed by/);
    expect(reasonOf(65)).to.match(/hex string/);
  });
});

describe("safeNextPath", function () {
  it("keeps a same-site path with its query", function () {
    expect(safeNextPath("/app/pools?sort=depth#top")).to.equal("/app/pools?sort=depth#top");
  });

  it("refuses every other target: protocol-relative, backslash, absolute URL, script, control characters", function () {
    for (const next of [
      "//evil.example/",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "app/pools",
      "/app/\npools",
      "",
      undefined,
      ["/app/"],
      "/" + "a".repeat(2000),
      // What cannot stand in a Location header: beyond ASCII, CR/LF, NUL, a space, DEL.
      "/\u{1F600}",
      "/\u00e9",
      "/app/\r\nSet-Cookie: x=1",
      "/app/\u0000",
      "/app/a b",
      "/app/\u007f",
    ]) {
      expect(safeNextPath(next), String(next)).to.equal("/app/pools");
    }
  });
});
