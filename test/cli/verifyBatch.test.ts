import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { ecdsaSign } from "secp256k1";
import { bytesToHex, type Hex } from "viem";
import { LINES_PER_CHUNK } from "../../src/cli/commands/verify/batch";
import { VerifyPool } from "../../src/cli/commands/verify/verifyPool";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { hashPersonalMessage } from "../../src/lib/internal/hashPersonalMessage";
import vectors from "../vectors/attestation-v1.json";
import { malleate } from "../vectors/signatures";

const ATTESTER = vectors.attester.address;
const NOW = String(vectors.now);
const ROOT = join(__dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "attest-verify-batch-"));
const byId = (id: string) => vectors.cases.find((c) => c.id === id)!;
const b01 = byId("B01-basic");

type ResultLine = { line: number; valid: boolean; expired: boolean; attester: string | null; error: string | null };

function file(name: string, lines: string[], end = "\n"): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join("\n") + end);
  return path;
}

/** Runs `attest <argv>` in this process with a recording io; stdout blocks are split into result lines. */
async function run(argv: string[], stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (block) => out.push(...block.split("\n")),
    stderr: (line) => err.push(line),
    readStdin: async () => stdin,
    env: {},
  };
  const code = await main(argv, io);
  return { code, results: out.map((line) => JSON.parse(line) as ResultLine), out, err };
}

/** Runs bin/attest.js in a child process (the compiled CLI `npx attest` runs). */
function child(argv: string[], stdin: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const proc = execFile(
      process.execPath,
      ["bin/attest.js", ...argv],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => resolve({ code: proc.exitCode, stdout, stderr }),
    );
    proc.stdin!.end(stdin);
  });
}

// Test key only (the conformance vectors' attester). Never fund it.
const KEY = Buffer.from(vectors.attester.privateKey.slice(2), "hex");

/** A fresh attestation for pool number `i`, signed with libsecp256k1 (fast enough for thousands of lines). */
function signedLine(i: number, expiry = vectors.now + 86_400): string {
  const fields = {
    chainId: 8453,
    confidence: 0.85,
    expiry,
    horizon: 30,
    issuedAt: vectors.now - 60,
    pool: `0x${(i + 1).toString(16).padStart(40, "0")}`,
  };
  const { signature, recid } = ecdsaSign(hashPersonalMessage(createAttestationMessage({ attestation: fields })), KEY);
  return JSON.stringify({ ...fields, signature: `${bytesToHex(signature)}${(27 + recid).toString(16)}` as Hex });
}

const VALID = { valid: true, expired: false, attester: ATTESTER, error: null };

describe("attest verify --batch", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe("a file mixing valid, expired, tampered and malformed lines", () => {
    const tooLong = `{"symbol":"${"a".repeat(1024 * 1024)}"}`;
    const lines = [
      b01.attestation_json,
      byId("E01-expired-authentic").attestation_json,
      byId("T01-tamper-confidence").attestation_json,
      "{not json",
      JSON.stringify({ ...b01.attestation, signature: malleate(b01.attestation.signature) }),
      "",
      b01.attestation_json.replace('{"chainId":1,', '{"chainId":1,"chainId":8453,'),
      byId("F02-pool-missing").attestation_json,
      tooLong,
      "[]",
      byId("B03-chain-8453").attestation_json.replace(
        /"signature":"0x([0-9a-f]+)"/,
        (_, h) => `"signature":"0X${h.toUpperCase()}"`,
      ),
      JSON.stringify({ ...b01.attestation, signature: undefined }),
      b01.attestation_json,
    ];
    const expected: Omit<ResultLine, "line">[] = [
      VALID,
      { valid: true, expired: true, attester: ATTESTER, error: null },
      { valid: false, expired: false, attester: byId("T01-tamper-confidence").expected.recovered, error: null },
      {
        valid: false,
        expired: false,
        attester: null,
        error: 'Input is not valid JSON: unexpected character "n", expected a member name at position 1.',
      },
      { valid: false, expired: false, attester: null, error: null }, // high-s: refused by the strict rules
      {
        valid: false,
        expired: false,
        attester: null,
        error: "Input is not valid JSON: unexpected end of input, expected a value at position 0.",
      },
      { valid: false, expired: false, attester: null, error: 'Input JSON repeats the member name "chainId".' },
      { valid: false, expired: false, attester: null, error: 'Attestation field "pool" is missing.' },
      {
        valid: false,
        expired: false,
        attester: null,
        error: "line is larger than 1048576 bytes (1 MiB); an attestation is far smaller",
      },
      { valid: false, expired: false, attester: null, error: "Attestation must be a JSON object." },
      VALID,
      { valid: false, expired: false, attester: null, error: 'Attestation field "signature" is missing.' },
      VALID,
    ];

    it("prints exactly one result per line, in input order, and exits 1", async () => {
      const { code, results, err } = await run([
        "verify",
        "--batch",
        file("mixed.ndjson", lines),
        "--attester",
        ATTESTER,
        "--now",
        NOW,
      ]);
      expect(err).to.deep.equal([]);
      // Checksummed attesters in the vectors are lower-cased there; compare case-insensitively where one is recovered.
      const normalized = results.map((r) => ({ ...r, attester: r.attester?.toLowerCase() ?? null }));
      expect(normalized).to.deep.equal(
        expected.map((e, i) => ({ line: i + 1, ...e, attester: e.attester?.toLowerCase() ?? null })),
      );
      expect(results[0].attester).to.equal(ATTESTER); // EIP-55, as the single command prints it
      expect(Object.keys(results[0])).to.deep.equal(["line", "valid", "expired", "attester", "error"]);
      expect(code).to.equal(1);
    });

    it("reads standard input with - or with no file, and a last line without a newline", async () => {
      const text = lines.join("\n");
      for (const argv of [
        ["verify", "--batch", "-"],
        ["verify", "--batch"],
      ]) {
        const { code, results } = await run([...argv, "--attester", ATTESTER, "--now", NOW], text);
        expect(results.map((r) => r.line)).to.deep.equal(lines.map((_, i) => i + 1));
        expect(results.map((r) => r.valid)).to.deep.equal(expected.map((e) => e.valid));
        expect(code).to.equal(1);
      }
    });
  });

  describe("exit status: 0 only when every line is valid and fresh", () => {
    const valid = [
      b01.attestation_json,
      byId("B02-chainid-string").attestation_json,
      byId("C04-conf-0.855").attestation_json,
    ];
    const expired = byId("E01-expired-authentic").attestation_json;
    const cases: [string, string[], number][] = [
      ["every line valid and fresh: 0", valid, 0],
      ["valid, one expired: 2", [...valid, expired], 2],
      ["valid, expired and one invalid: 1", [...valid, expired, byId("T01-tamper-confidence").attestation_json], 1],
      ["one malformed line among valid ones: 1", [...valid, "{}"], 1],
      ["valid signatures by another attester: 1", [byId("B01-basic").attestation_json], 1],
    ];
    for (const [name, lines, status] of cases)
      it(name, async () => {
        const attester = name.includes("another") ? vectors.impostor.address : ATTESTER;
        const { code, results } = await run([
          "verify",
          "--batch",
          file("status.ndjson", lines),
          "--attester",
          attester,
          "--now",
          NOW,
        ]);
        expect(results).to.have.length(lines.length);
        expect(code).to.equal(status);
      });

    it("uses --now for every line (the expiry second is expired)", async () => {
      const path = file("now.ndjson", [b01.attestation_json]);
      const at = async (now: number) =>
        (await run(["verify", "--batch", path, "--attester", ATTESTER, "--now", String(now)])).code;
      expect(await at(b01.attestation.expiry - 1)).to.equal(0);
      expect(await at(b01.attestation.expiry)).to.equal(2);
    });
  });

  describe("input that cannot be read: one line on standard error, exit 1", () => {
    const cases: [string, () => string, RegExp][] = [
      [
        "a missing file",
        () => join(dir, "missing.ndjson"),
        /^attest verify: cannot read ".*missing\.ndjson" \(ENOENT\)$/,
      ],
      ["a directory", () => dir, /^attest verify: cannot read ".*" \(EISDIR\)$/],
      ["an empty file", () => file("empty.ndjson", [], ""), /^attest verify: ".*empty\.ndjson" is empty$/],
    ];
    for (const [name, path, message] of cases)
      it(name, async () => {
        const { code, out, err } = await run(["verify", "--batch", path(), "--attester", ATTESTER]);
        expect(code).to.equal(1);
        expect(out).to.deep.equal([]);
        expect(err).to.have.length(1);
        expect(err[0]).to.match(message);
      });
  });

  describe("usage errors exit 64", () => {
    const path = () => file("b01.ndjson", [b01.attestation_json]);
    const cases: [string, () => string[], RegExp][] = [
      ["no --attester", () => ["verify", "--batch", path()], /--attester <address> is required/],
      ["two files", () => ["verify", "--batch", path(), path(), "--attester", ATTESTER], /one NDJSON file/],
      [
        "--url",
        () => ["verify", "--batch", "--url", "http://127.0.0.1:1", "--pool", "p", "--attester", ATTESTER],
        /not from --url/,
      ],
      [
        "--workers 0",
        () => ["verify", "--batch", path(), "--attester", ATTESTER, "--workers", "0"],
        /--workers must be an integer from 1 to 256, got "0"/,
      ],
      [
        "--workers 257",
        () => ["verify", "--batch", path(), "--attester", ATTESTER, "--workers", "257"],
        /--workers must be/,
      ],
      [
        "--workers two",
        () => ["verify", "--batch", path(), "--attester", ATTESTER, "--workers", "two"],
        /--workers must be/,
      ],
      [
        "--workers without --batch",
        () => ["verify", path(), "--attester", ATTESTER, "--workers", "2"],
        /--workers needs --batch/,
      ],
    ];
    for (const [name, argv, message] of cases)
      it(name, async () => {
        const { code, out, err } = await run(argv());
        expect(code).to.equal(64);
        expect(out).to.deep.equal([]);
        expect(err[0])
          .to.match(/^attest verify: /)
          .and.match(message);
        expect(err[err.length - 1]).to.match(/attest verify --batch \[file\|-\] --attester <address>/);
      });
  });

  it("keeps input order across many chunks and workers (3,000 lines, 12 chunks, 2 workers)", async function () {
    const count = 3_000;
    const lines = Array.from({ length: count }, (_, i) =>
      i % 7 === 3 ? "{}" : i % 11 === 5 ? signedLine(i, vectors.now) : signedLine(i),
    );
    expect(Math.ceil(count / LINES_PER_CHUNK)).to.equal(12);
    const { code, results } = await run([
      "verify",
      "--batch",
      file("many.ndjson", lines),
      "--attester",
      ATTESTER,
      "--now",
      NOW,
      "--workers",
      "2",
    ]);
    expect(results.map((r) => r.line)).to.deep.equal(lines.map((_, i) => i + 1));
    for (const [i, r] of results.entries()) {
      if (i % 7 === 3)
        expect(r, `line ${i + 1}`).to.deep.include({ valid: false, error: 'Attestation field "chainId" is missing.' });
      else expect(r, `line ${i + 1}`).to.deep.include({ valid: true, expired: i % 11 === 5, error: null });
    }
    expect(code).to.equal(1);
  });

  it("workers verify with the backend the main thread uses (setVerifyBackend or ATTEST_VERIFY_BACKEND)", async () => {
    const nowSeconds = vectors.now;
    for (const backend of ["auto", "js", "native"] as const) {
      const pool = new VerifyPool(1, { address: ATTESTER, nowSeconds, backend });
      try {
        const result = await pool.verify(1, [b01.attestation_json, null]);
        expect(result.backend, backend).to.equal(backend === "js" ? "js" : "native");
        expect(result).to.deep.include({ lines: 2, valid: 1, expired: 0, invalid: 1 });
      } finally {
        await pool.close();
      }
    }
  });

  it("a worker that fails rejects its job and every later one (the batch stops, nothing hangs)", async () => {
    const pool = new VerifyPool(1, { address: ATTESTER, nowSeconds: vectors.now, backend: "fast" as "js" });
    try {
      const first = pool.verify(1, [b01.attestation_json]);
      let failure: unknown;
      await first.catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/backend must be one of auto, native, js, got "fast"/);
      let later: unknown;
      await pool.verify(2, [b01.attestation_json]).catch((error: unknown) => (later = error));
      expect(later).to.equal(failure);
    } finally {
      await pool.close();
    }
  });

  describe("through bin/attest.js (compiled, real worker threads)", () => {
    it("reads a pipe on standard input; no progress when standard error is not a terminal", async () => {
      const lines = [b01.attestation_json, "{not json", byId("E01-expired-authentic").attestation_json];
      const { code, stdout, stderr } = await child(
        ["verify", "--batch", "--attester", ATTESTER, "--now", NOW],
        lines.join("\n"),
      );
      expect(stderr).to.equal("");
      const results = stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as ResultLine);
      expect(results.map((r) => [r.line, r.valid, r.expired])).to.deep.equal([
        [1, true, false],
        [2, false, false],
        [3, true, true],
      ]);
      expect(code).to.equal(1);
    });

    it("ATTEST_VERIFY_BACKEND=js gives the same lines", async () => {
      const lines = [
        b01.attestation_json,
        byId("T01-tamper-confidence").attestation_json,
        byId("S04-high-s").attestation_json,
      ];
      const argv = ["verify", "--batch", "-", "--attester", ATTESTER, "--now", NOW];
      const native = await child(argv, lines.join("\n"), { ATTEST_VERIFY_BACKEND: "native" });
      const js = await child(argv, lines.join("\n"), { ATTEST_VERIFY_BACKEND: "js" });
      expect(js.stdout).to.equal(native.stdout);
      expect(js.stdout.split("\n")).to.have.length(4);
      expect([js.code, native.code]).to.deep.equal([1, 1]);
    });

    it("stops in one stderr line, exit 1, when standard output closes early (| head)", async () => {
      const input = file(
        "many-short.ndjson",
        Array.from({ length: 200_000 }, () => "{}"),
      );
      const result = await new Promise<{ code: number | null; stderr: string; first: string }>((resolve) => {
        const proc = spawn(process.execPath, ["bin/attest.js", "verify", "--batch", input, "--attester", ATTESTER], {
          cwd: ROOT,
        });
        let stderr = "";
        let first = "";
        proc.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
        proc.stdout.once("data", (data: Buffer) => {
          first = data.toString().split("\n")[0];
          proc.stdout.destroy(); // the reader goes away, as `head -1` does
        });
        proc.on("close", (code) => resolve({ code, stderr, first }));
      });
      expect(JSON.parse(result.first)).to.deep.equal({
        line: 1,
        valid: false,
        expired: false,
        attester: null,
        error: 'Attestation field "chainId" is missing.',
      });
      expect(result.stderr).to.match(/^attest verify: standard output closed \(EPIPE\) after \d+ results\n$/);
      expect(result.code).to.equal(1);
    });

    it("draws progress on standard error when it is a terminal (under script(1))", async function () {
      const input = file(
        "tty.ndjson",
        Array.from({ length: 600 }, (_, i) => signedLine(i)),
      );
      const output = join(dir, "tty.out");
      const command = `node bin/attest.js verify --batch ${input} --attester ${ATTESTER} --now ${NOW} > ${output}`;
      const terminal = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const proc = spawn("script", ["-qec", command, "/dev/null"], { cwd: ROOT });
        let text = "";
        proc.stdout.on("data", (data: Buffer) => (text += data.toString()));
        proc.on("close", (code) => resolve({ code, text }));
      });
      expect(terminal.code).to.equal(0);
      // The terminal turns "\n" into "\r\n": the last non-blank piece between carriage returns is the final summary.
      const last = terminal.text
        .split("\r")
        .filter((part) => part.trim() !== "")
        .pop()!;
      expect(last).to.match(
        /^attest verify --batch: 600 lines \([\d,]+\/s, \d+ workers, native\): 600 valid and fresh, 0 expired, 0 invalid\x1b\[K$/,
      );
      expect(readFileSync(output, "utf8").trimEnd().split("\n")).to.have.length(600);
    });
  });
});
