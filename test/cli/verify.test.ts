import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { verifyCommand } from "../../src/cli/commands/verify";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import vectors from "../vectors/attestation-v1.json";

const ATTESTER = vectors.attester.address;
const IMPOSTOR = vectors.impostor.address;
const NOW = String(vectors.now);
const dir = mkdtempSync(join(tmpdir(), "attest-verify-"));
const b01 = vectors.cases[0];
/** The usage lines printed after a usage error, one line per write. */
const USAGE = [
  "usage: attest verify <file|-> --attester <address> [--now <unix-seconds>]",
  "       attest verify --url <base_url> --pool <id> [--attester <address>] [--now <unix-seconds>]",
  "       attest verify --batch [file|-] --attester <address> [--now <unix-seconds>] [--workers <n>]",
];

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A CliIo that records lines. */
function fakeIo(stdin = "", env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    readStdin: async () => stdin,
    env,
  };
  return { io, out, err };
}

async function run(argv: string[], stdin = "") {
  const { io, out, err } = fakeIo(stdin);
  const code = await main(argv, io);
  return { code, out, err };
}

/** The single JSON line printed on stdout. */
function line(out: string[]) {
  expect(out).to.have.length(1);
  return JSON.parse(out[0]) as {
    valid: boolean;
    attester: string | null;
    expired: boolean;
    canonical: string | null;
    error?: string;
  };
}

describe("attest verify", () => {
  describe("conformance vectors (file input)", () => {
    for (const c of vectors.cases) {
      it(`${c.id}: exit ${c.expected.canonical === null ? 1 : !c.expected.valid ? 1 : c.expected.expired ? 2 : 0}`, async () => {
        const path = file(`${c.id}.json`, c.attestation_json);
        const { code, out, err } = await run([
          "verify",
          path,
          "--attester",
          c.expectedAttester,
          "--now",
          String(c.now),
        ]);
        const result = line(out);
        expect(err).to.deep.equal([]);
        expect(result.valid).to.equal(c.expected.valid);
        expect(result.canonical).to.equal(c.expected.canonical);
        expect(result.attester?.toLowerCase() ?? null).to.equal(c.expected.recovered);
        if (c.expected.canonical === null) {
          expect(result.error).to.be.a("string").and.match(/pool/);
          expect(result.expired).to.equal(false);
          expect(code).to.equal(1);
        } else {
          expect(result).not.to.have.property("error");
          if (c.expected.valid) expect(result.expired).to.equal(c.expected.expired);
          expect(code).to.equal(!c.expected.valid ? 1 : c.expected.expired ? 2 : 0);
        }
        expect(Object.keys(result).slice(0, 4)).to.deep.equal(["valid", "attester", "expired", "canonical"]);
      });
    }
  });

  it("reads standard input with -", async () => {
    const { code, out } = await run(["verify", "-", "--attester", ATTESTER, "--now", NOW], b01.attestation_json);
    expect(code).to.equal(0);
    expect(line(out)).to.deep.equal({
      valid: true,
      attester: ATTESTER,
      expired: false,
      canonical: b01.expected.canonical,
    });
  });

  it("exits 2 at the expiry second and 0 one second before", async () => {
    const path = file("b01.json", b01.attestation_json);
    const expiry = b01.attestation.expiry;
    expect((await run(["verify", path, "--attester", ATTESTER, "--now", String(expiry - 1)])).code).to.equal(0);
    const atExpiry = await run(["verify", path, "--attester", ATTESTER, "--now", String(expiry)]);
    expect(atExpiry.code).to.equal(2);
    expect(line(atExpiry.out)).to.include({ valid: true, expired: true });
  });

  it("accepts --now up to the latest time a Date holds (8640000000000)", async () => {
    const path = file("b01.json", b01.attestation_json);
    const { code, out } = await run(["verify", path, "--attester", ATTESTER, "--now", "8640000000000"]);
    expect(code).to.equal(2);
    expect(line(out)).to.include({ valid: true, expired: true });
    expect((await run(["verify", path, "--attester", ATTESTER, "--now", "0"])).code).to.equal(0);
  });

  it("uses the clock when --now is absent", async () => {
    const path = file("b01.json", b01.attestation_json);
    const { out } = await run(["verify", path, "--attester", ATTESTER]);
    expect(line(out).expired).to.equal(b01.attestation.expiry <= Math.floor(Date.now() / 1000));
  });

  it("exits 1 for the wrong pinned attester, whatever the payload's attester field says", async () => {
    const path = file("b01.json", b01.attestation_json);
    const { code, out } = await run(["verify", path, "--attester", IMPOSTOR, "--now", NOW]);
    expect(code).to.equal(1);
    expect(line(out)).to.include({ valid: false, attester: ATTESTER });
  });

  describe("unreadable or malformed input: one JSON line with error, exit 1, no stack trace", () => {
    const cases: [string, () => string, RegExp][] = [
      ["a missing file", () => join(dir, "does-not-exist.json"), /cannot read .*ENOENT/],
      ["a directory", () => dir, /cannot read .*EISDIR/],
      ["text that is not JSON", () => file("bad.json", "{not json"), /not valid JSON/],
      ["an empty file", () => file("empty.json", ""), /not valid JSON/],
      [
        "a repeated member name",
        () => file("dup.json", b01.attestation_json.replace('{"chainId":1,', '{"chainId":1,"chainId":8453,')),
        /repeats the member name "chainId"/,
      ],
      ["a JSON array", () => file("array.json", "[]"), /must be a JSON object/],
      [
        "a string confidence",
        () => file("conf.json", b01.attestation_json.replace('"confidence":0.85', '"confidence":"0.85"')),
        /"confidence"/,
      ],
      [
        "a hex chainId",
        () => file("hex.json", b01.attestation_json.replace('"chainId":1', '"chainId":"0x1"')),
        /"chainId"/,
      ],
      ...(
        [
          ['"chainId":1', '"chainId":1.0000000000000001', "chainId", "the JSON number is written with a fraction"],
          ['"chainId":1', '"chainId":1.0', "chainId", "the JSON number is written with a fraction"],
          ['"chainId":1', '"chainId":-0', "chainId", "negative zero \\(a sign\\)"],
          [
            '"expiry":1767225600',
            '"expiry":1767225600.0000001',
            "expiry",
            "the JSON number is written with a fraction",
          ],
          ['"horizon":30', '"horizon":3e1', "horizon", "the JSON number is written with an exponent"],
          [
            '"issuedAt":1764547200',
            '"issuedAt":1.7645472E9',
            "issuedAt",
            "the JSON number is written with a fraction and an exponent",
          ],
        ] as const
      ).map(([from, to, field, what]): [string, () => string, RegExp] => [
        `an integer field written as ${to} (JSON.parse would give an integer that verifies)`,
        () => file(`${field}.json`, b01.attestation_json.replace(from, to)),
        new RegExp(`^Attestation field "${field}" is invalid: ${what}[.;]`),
      ]),
      [
        "a missing signature",
        () => file("nosig.json", JSON.stringify({ ...b01.attestation, signature: undefined })),
        /"signature" is missing/,
      ],
    ];
    for (const [name, path, message] of cases) {
      it(name, async () => {
        const { code, out, err } = await run(["verify", path(), "--attester", ATTESTER, "--now", NOW]);
        expect(code).to.equal(1);
        const result = line(out);
        expect(result).to.include({ valid: false, attester: null, expired: false, canonical: null });
        expect(result.error).to.match(message);
        expect(result.error).not.to.contain("\n");
        expect(result.error).not.to.match(/\bat .*\.ts:\d+/);
        expect(err).to.deep.equal([]);
      });
    }
  });

  describe("input size: at most 1 MiB, larger input is one JSON line with error, exit 1", () => {
    const MiB = 1024 * 1024;
    /** b01 with an unsigned `symbol` padded so the whole text is `size` bytes. */
    const padded = (size: number) => {
      const text = b01.attestation_json.replace('"symbol":"USDC/WETH"', '"symbol":""');
      expect(text).not.to.equal(b01.attestation_json);
      return text.replace('"symbol":""', `"symbol":"${"a".repeat(size - text.length)}"`);
    };

    it("verifies an input of exactly 1 MiB (its long string is scanned, not backtracked)", async () => {
      const text = padded(MiB);
      expect(Buffer.byteLength(text)).to.equal(MiB);
      const { code, out } = await run(["verify", file("1mib.json", text), "--attester", ATTESTER, "--now", NOW]);
      expect(code).to.equal(0);
      expect(line(out)).to.include({ valid: true, attester: ATTESTER });
      const stdin = await run(["verify", "-", "--attester", ATTESTER, "--now", NOW], text);
      expect(stdin.code).to.equal(0);
    });

    it("rejects a file or standard input one byte over 1 MiB", async () => {
      const text = padded(MiB + 1);
      for (const [argv, stdin] of [
        [["verify", file("big.json", text)], ""],
        [["verify", "-"], text],
        [["verify", "-"], padded(MiB).replace('"symbol":"a', '"symbol":"é')], // 1 MiB + 1 bytes of UTF-8
      ] as [string[], string][]) {
        const { code, out, err } = await run([...argv, "--attester", ATTESTER, "--now", NOW], stdin);
        expect(code).to.equal(1);
        const result = line(out);
        expect(result).to.include({ valid: false, attester: null, expired: false, canonical: null });
        expect(result.error).to.match(/is larger than 1048576 bytes \(1 MiB\)/);
        expect(err).to.deep.equal([]);
      }
    });

    it("rejects the 20 MB string of the stack-overflow report in one line (bin/attest.js)", async () => {
      const path = file("huge.json", `{"x":"${"a".repeat(20_000_000)}"}\n`);
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ["bin/attest.js", "verify", path, "--attester", ATTESTER],
          { cwd: join(__dirname, "..", "..") },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      });
      expect(result.stderr).to.equal("");
      expect(result.code).to.equal(1);
      expect(result.stdout.trim().split("\n")).to.have.length(1);
      expect(JSON.parse(result.stdout)).to.deep.include({ valid: false, attester: null, canonical: null });
      expect((JSON.parse(result.stdout) as { error: string }).error).to.match(/huge\.json" is larger than 1048576/);
    });

    it("sign and digest refuse an oversized file in one stderr line", async () => {
      const path = file("big.json", padded(MiB + 1));
      for (const argv of [
        ["sign", path],
        ["digest", path, "--registry", ATTESTER, "--chain", "1"],
      ]) {
        const { io, out, err } = fakeIo("", { ATTESTER_PRIVATE_KEY: vectors.attester.privateKey });
        expect(await main(argv, io)).to.equal(1);
        expect(out).to.deep.equal([]);
        expect(err).to.have.length(1);
        expect(err[0]).to.match(/^attest (sign|digest): ".*big\.json" is larger than 1048576 bytes/);
      }
    });
  });

  describe("usage errors exit 64", () => {
    const path = () => file("b01.json", b01.attestation_json);
    const cases: [string, () => string[], RegExp][] = [
      ["no --attester", () => ["verify", path()], /--attester <address> is required/],
      ["a malformed --attester", () => ["verify", path(), "--attester", "0x1234"], /--attester must be/],
      ["a fractional --now", () => ["verify", path(), "--attester", ATTESTER, "--now", "1.5"], /--now must be/],
      ["a negative --now", () => ["verify", path(), "--attester", ATTESTER, "--now=-1"], /--now must be/],
      [
        "a --now past the latest Date (8640000000001)",
        () => ["verify", path(), "--attester", ATTESTER, "--now", "8640000000001"],
        /^attest verify: --now must be Unix seconds, an integer from 0 to 8640000000000 \(the latest time a Date holds\), got "8640000000001"$/,
      ],
      [
        "a --now of 99999999999999 (the review's case)",
        () => ["verify", path(), "--attester", ATTESTER, "--now", "99999999999999"],
        /--now must be .* got "99999999999999"$/,
      ],
      [
        "a --now of 400 digits",
        () => ["verify", path(), "--attester", ATTESTER, "--now", "9".repeat(400)],
        /--now must be .* got "9{37}\.\.\."$/,
      ],
      ["no file", () => ["verify", "--attester", ATTESTER], /exactly one attestation file/],
      ["two files", () => ["verify", path(), path(), "--attester", ATTESTER], /exactly one attestation file/],
      ["an unknown option", () => ["verify", path(), "--attester", ATTESTER, "--fast"], /Unknown option/],
      ["--pool without --url", () => ["verify", "--pool", "x", "--attester", ATTESTER], /--pool needs --url/],
      ["--url without --pool", () => ["verify", "--url", "http://127.0.0.1:1"], /--url needs --pool/],
      ["--url and a file", () => ["verify", path(), "--url", "http://127.0.0.1:1", "--pool", "x"], /not both/],
      ["a non-http --url", () => ["verify", "--url", "file:///etc", "--pool", "x"], /http or https/],
    ];
    for (const [name, argv, message] of cases) {
      it(name, async () => {
        const { code, out, err } = await run(argv());
        expect(code).to.equal(64);
        expect(out).to.deep.equal([]);
        expect(err[0]).to.match(/^attest verify: /);
        expect(err[0]).to.match(message);
        expect(err.slice(1)).to.deep.equal(USAGE);
        for (const entry of err) expect(entry).not.to.contain("\n");
      });
    }

    it("says in one line that --now -1 needs --now=-1 (node's three-line message, joined)", async () => {
      const { code, err } = await run(["verify", path(), "--attester", ATTESTER, "--now", "-1"]);
      expect(code).to.equal(64);
      expect(err[0]).to.equal(
        "attest verify: Option '--now' argument is ambiguous. Did you forget to specify the option argument for " +
          "'--now'? To specify an option argument starting with a dash use '--now=-XYZ'.",
      );
      expect(err.slice(1)).to.deep.equal(USAGE);
    });

    it("names an unknown option in one line, without node's hint about positionals", async () => {
      const { code, err } = await run(["verify", path(), "--attester", ATTESTER, "--bogus"]);
      expect(code).to.equal(64);
      expect(err).to.deep.equal(["attest verify: Unknown option '--bogus'", ...USAGE]);
    });

    it("digest and sign give one-line usage errors too", async () => {
      for (const [argv, message] of [
        [["digest", path(), "--chain", "-1"], "attest digest: Option '--chain' argument is ambiguous. Did you"],
        [["sign", path(), "--bogus"], "attest sign: Unknown option '--bogus'"],
      ]) {
        const { code, out, err } = await run(argv as string[]);
        expect(code).to.equal(64);
        expect(out).to.deep.equal([]);
        expect(err[0].startsWith(message as string), err[0]).to.equal(true);
        expect(err[1]).to.match(new RegExp(`^usage: attest ${argv[0]} `));
        for (const entry of err) expect(entry).not.to.contain("\n");
      }
    });
  });

  describe("--help", () => {
    for (const flag of ["--help", "-h"])
      it(`verify ${flag} prints the usage on standard output and exits 0`, async () => {
        const { code, out, err } = await run(["verify", flag]);
        expect(code).to.equal(0);
        expect(err).to.deep.equal([]);
        expect(out).to.deep.equal([`attest verify: ${verifyCommand.summary}`, ...USAGE]);
      });

    it("wins over other arguments, even bad ones, but not after --", async () => {
      const { code, out } = await run(["verify", "--bogus", "--now", "x", "--help"]);
      expect(code).to.equal(0);
      expect(out.slice(1)).to.deep.equal(USAGE);
      const positional = await run(["verify", "--attester", ATTESTER, "--", "--help"]);
      expect(positional.code).to.equal(1); // "--help" is the file name here
      expect(line(positional.out).error).to.match(/cannot read "--help" \(ENOENT\)/);
    });

    it("works for digest and sign", async () => {
      for (const name of ["digest", "sign"]) {
        const { code, out, err } = await run([name, "--help"]);
        expect(code).to.equal(0);
        expect(err).to.deep.equal([]);
        expect(out[1]).to.match(new RegExp(`^usage: attest ${name} <file\\|-> `));
      }
    });
  });

  describe("attest (no command, --help)", () => {
    it("with no command prints the usage on standard error and exits 64", async () => {
      const { code, out, err } = await run([]);
      expect(code).to.equal(64);
      expect(out).to.deep.equal([]);
      expect(err[0]).to.equal("usage: attest <command> [options]");
      expect(err.join("\n")).to.match(/\n {2}verify {4}verify a v1 attestation/);
    });

    for (const flag of ["--help", "-h", "help"])
      it(`${flag} prints the usage on standard output and exits 0`, async () => {
        const { code, out, err } = await run([flag]);
        expect(code).to.equal(0);
        expect(err).to.deep.equal([]);
        expect(out[0]).to.equal("usage: attest <command> [options]");
        for (const name of ["verify", "digest", "sign", "register", "status"])
          expect(out.some((entry) => entry.startsWith(`  ${name} `))).to.equal(true);
        for (const entry of out) expect(entry).not.to.contain("\n");
      });

    it("rejects an unknown command on standard error with exit 64", async () => {
      const { code, out, err } = await run(["verfiy"]);
      expect(code).to.equal(64);
      expect(out).to.deep.equal([]);
      expect(err).to.deep.equal(['attest: unknown command "verfiy"; run "attest --help" for the list']);
    });
  });

  describe("--url (loopback server)", () => {
    let server: Server;
    let base: string;
    let requests: string[];
    let served: { attester: string; attesterRaw?: string; pool: string; poolStatus: number };

    before(async () => {
      server = createServer((req: IncomingMessage, res: ServerResponse) => {
        requests.push(req.url ?? "");
        res.setHeader("content-type", "application/json");
        if (req.url === "/api/v1/attester") {
          res.end(
            served.attesterRaw ?? JSON.stringify({ attester: served.attester, scheme: "eip191-v1", registry: null }),
          );
        } else if (req.url?.startsWith("/api/v1/pool/")) {
          res.statusCode = served.poolStatus;
          res.end(served.pool);
        } else {
          res.statusCode = 404;
          res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: "no route" } }));
        }
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    beforeEach(() => {
      requests = [];
      served = { attester: ATTESTER, pool: b01.attestation_json, poolStatus: 200 };
    });

    it("takes the expected attester from GET /api/v1/attester and says that pinning is stronger", async () => {
      const { code, out, err } = await run([
        "verify",
        "--url",
        `${base}/`,
        "--pool",
        "eip155:1:0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "--now",
        NOW,
      ]);
      expect(code).to.equal(0);
      expect(line(out)).to.include({ valid: true, attester: ATTESTER });
      expect(err.join("\n")).to.match(/taken from .*\/api\/v1\/attester.*--attester is stronger/);
      expect(requests).to.deep.equal([
        "/api/v1/attester",
        "/api/v1/pool/eip155%3A1%3A0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
      ]);
    });

    it("uses a pinned --attester without asking the server", async () => {
      served.attester = IMPOSTOR; // a compromised server cannot change the pinned answer
      const { code, out, err } = await run([
        "verify",
        "--url",
        base,
        "--pool",
        "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "--attester",
        ATTESTER,
        "--now",
        NOW,
      ]);
      expect(code).to.equal(0);
      expect(line(out).valid).to.equal(true);
      expect(err).to.deep.equal([]);
      expect(requests).to.deep.equal(["/api/v1/pool/0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640"]);
    });

    it("is invalid when the served attester is not the signer", async () => {
      served.attester = IMPOSTOR;
      const { code, out } = await run(["verify", "--url", base, "--pool", "p", "--now", NOW]);
      expect(code).to.equal(1);
      expect(line(out)).to.include({ valid: false, attester: ATTESTER });
    });

    it("reports an HTTP error status in the result line", async () => {
      served.poolStatus = 404;
      served.pool = JSON.stringify({ error: { code: "POOL_NOT_FOUND", message: "unknown pool" } });
      const { code, out } = await run(["verify", "--url", base, "--pool", "p", "--attester", ATTESTER]);
      expect(code).to.equal(1);
      const result = line(out);
      expect(result).to.include({ valid: false, canonical: null });
      expect(result.error).to.match(/HTTP 404: POOL_NOT_FOUND unknown pool/);
    });

    it("rejects a served body with repeated member names", async () => {
      served.pool = b01.attestation_json.replace('{"chainId":1,', '{"chainId":8453,"chainId":1,');
      const { code, out } = await run(["verify", "--url", base, "--pool", "p", "--attester", ATTESTER]);
      expect(code).to.equal(1);
      expect(line(out).error).to.match(/repeats the member name "chainId"/);
    });

    it("reports an attester endpoint that does not return JSON", async () => {
      served.attesterRaw = "<html>";
      const { code, out } = await run(["verify", "--url", base, "--pool", "p"]);
      expect(code).to.equal(1);
      expect(line(out).error).to.match(/\/api\/v1\/attester: Input is not valid JSON/);
      served.attesterRaw = JSON.stringify({ attester: "0x1234" });
      const wrongShape = await run(["verify", "--url", base, "--pool", "p"]);
      expect(wrongShape.code).to.equal(1);
      expect(line(wrongShape.out).error).to.match(/\/api\/v1\/attester did not return an "attester" address/);
    });

    it("refuses a served body larger than 1 MiB", async () => {
      served.pool = `{"x":"${"a".repeat(2 * 1024 * 1024)}"}`;
      const { code, out } = await run(["verify", "--url", base, "--pool", "p", "--attester", ATTESTER]);
      expect(code).to.equal(1);
      expect(line(out).error).to.match(
        /the body of GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pool\/p is larger than 1048576/,
      );
    });

    it("reports an unreachable server in one line", async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const { code, out } = await run([
        "verify",
        "--url",
        `http://127.0.0.1:${port}`,
        "--pool",
        "p",
        "--attester",
        ATTESTER,
      ]);
      expect(code).to.equal(1);
      expect(line(out).error).to.match(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pool\/p failed/);
    });
  });

  it("works through bin/attest.js in a child process", async () => {
    const path = file("b01.json", b01.attestation_json);
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["bin/attest.js", "verify", path, "--attester", ATTESTER, "--now", String(b01.attestation.expiry)],
        { cwd: join(__dirname, "..", "..") },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.stderr).to.equal("");
    expect(result.code).to.equal(2);
    expect(result.stdout.trim().split("\n")).to.have.length(1);
    expect(JSON.parse(result.stdout)).to.deep.equal({
      valid: true,
      attester: ATTESTER,
      expired: true,
      canonical: b01.expected.canonical,
    });
  });
});
