/**
 * Start-up and whole-process figures of the compiled build, each beside the run-time path it replaced
 * (ts-node over src/, as `npx attest` and `npm start` ran before) and measured in the same run:
 *
 * 1. `attest --help` cold start: median wall time of BENCH_RUNS runs (default 7, interleaved), as a ratio to
 *    `node -e 0` in the same run (target <= 5x), and the peak RSS of each process.
 * 2. `attest verify --batch` over BENCH_BATCH_LINES (default 30,000) mixed NDJSON lines (valid, expired, tampered,
 *    malformed) as a whole process (start, read, all cores, write), in lines per second, against raw libsecp256k1
 *    public-key recovery of prepared inputs on one core in this process (target >= 0.8x). Best of BENCH_RUNS_BATCH
 *    (default 3).
 * 3. `npm start`'s service (the demo on its defaults): time from spawn to the ready line, RSS right after ready, and
 *    what it serves then (`/api/v1/health`: tracked pools and attestations). One run of each (each replays the demo's
 *    simulated days). The README's quick-start figures are this table's.
 *
 * Run with `npm run bench:startup` after `npm run build`. Prints Markdown tables; no asserts.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { ecdsaSign } from "secp256k1";
import { bytesToHex, type Hex } from "viem";
import type { Attestation } from "../src/lib/types";
import { createAttestationMessage } from "../src/lib/createAttestationMessage";
import { hashPersonalMessage } from "../src/lib/internal/hashPersonalMessage";
import { parseAttestationSignature } from "../src/lib/parseAttestationSignature";

const ROOT = join(__dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const RUNS_BATCH = Number(process.env.BENCH_RUNS_BATCH ?? 3);
const BATCH_LINES = Number(process.env.BENCH_BATCH_LINES ?? 30_000);
// Test key only (the conformance vectors' attester). Never fund it.
const KEY = Buffer.from("ec7aac5d61263683eb80db189052b4f211f145268a59db7ce260be7db5831a5d", "hex");
const ADDRESS = "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F";
const NOW = 1765584000;
const TIME_BIN = "/usr/bin/time";

// The addon's API as the package exports it from `secp256k1/bindings` (no silent fallback to elliptic).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped addon, typed by the cast
const native = require("secp256k1/bindings") as {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
};

/** The CLI as it ran before the build: ts-node over src/ (what bin/attest.js registered). */
const TS_NODE_CLI = [
  "-r",
  "ts-node/register/transpile-only",
  "-e",
  'require("./src/cli/main").main(process.argv.slice(1)).then((code) => { process.exitCode = code; })',
];

type Sample = { ms: number; rssMb: number | null };

/** Runs node with `args` once: wall milliseconds and peak RSS (through /usr/bin/time where it exists). */
function runOnce(args: string[]): Sample {
  const timed = existsSync(TIME_BIN);
  const command = timed ? TIME_BIN : process.execPath;
  const argv = timed ? ["-f", "%M", process.execPath, ...args] : args;
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const rss = timed ? Number(result.stderr.trim().split("\n").pop()) / 1024 : null;
  return { ms, rssMb: rss };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function cliStart(): void {
  const rows: [string, string[]][] = [
    ["`node -e 0` (the floor)", ["-e", "0"]],
    ["`node bin/attest.js --help` (compiled dist/)", ["bin/attest.js", "--help"]],
    ["before: ts-node over src/ (`--help`)", [...TS_NODE_CLI, "--help"]],
  ];
  const samples = rows.map((): Sample[] => []);
  for (const [, args] of rows) runOnce(args); // warm the file cache
  for (let run = 0; run < RUNS; run++) rows.forEach(([, args], i) => samples[i].push(runOnce(args)));
  const floor = median(samples[0].map((s) => s.ms));
  console.log(`\n\`attest --help\` cold start (node ${process.version}, median of ${RUNS} runs, interleaved)\n`);
  console.log("| command | median ms | vs node -e 0 | peak RSS MB |");
  console.log("|---|---:|---:|---:|");
  rows.forEach(([name], i) => {
    const ms = median(samples[i].map((s) => s.ms));
    const rss = samples[i][0].rssMb === null ? "n/a" : median(samples[i].map((s) => s.rssMb!)).toFixed(0);
    console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / floor).toFixed(1)}x | ${rss} |`);
  });
  const compiled = median(samples[1].map((s) => s.ms));
  console.log(`\nattest --help / node -e 0 = ${(compiled / floor).toFixed(1)}x (target <= 5x)`);
}

/** 30,000 mixed lines: 70 % valid, 10 % expired, 10 % tampered (fails recovery), 10 % not JSON. */
function mixedLines(): string[] {
  return Array.from({ length: BATCH_LINES }, (_, n) => {
    const kind = n % 10;
    if (kind === 9) return `{not json ${n}`;
    const fields = {
      chainId: [1, 42161, 8453][n % 3],
      confidence: (50 + (n % 50)) / 100,
      expiry: kind === 7 ? NOW - 1 - n : NOW + 86_400 + n,
      horizon: 30,
      issuedAt: NOW - 86_400 - n,
      pool: `0x${(0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640n + BigInt(n)).toString(16).padStart(40, "0")}`,
    };
    const { signature, recid } = ecdsaSign(hashPersonalMessage(createAttestationMessage({ attestation: fields })), KEY);
    const signed = { ...fields, signature: `${bytesToHex(signature)}${(27 + recid).toString(16)}` };
    if (kind === 8) signed.confidence = signed.confidence === 0.99 ? 0.98 : 0.99;
    return JSON.stringify(signed);
  });
}

/** Raw libsecp256k1 recoveries per second on one core, prepared inputs (hash, r‖s, recovery id): the ceiling. */
function recoveryCeiling(lines: string[]): number {
  const prepared = lines
    .filter((line) => line.startsWith('{"'))
    .slice(0, 256)
    .map((line) => {
      const attestation = JSON.parse(line) as Attestation & { signature: Hex };
      const sig = parseAttestationSignature({ signature: attestation.signature });
      return {
        hash: hashPersonalMessage(createAttestationMessage({ attestation })),
        rs: Buffer.from(sig.serialized.slice(2, 130), "hex"),
        bit: sig.yParity,
      };
    });
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let i = 0;
    const start = process.hrtime.bigint();
    const end = start + 1_000_000_000n;
    let now = start;
    while (now < end) {
      for (let k = 0; k < 16; k++, i++)
        native.ecdsaRecover(prepared[i % 256].rs, prepared[i % 256].bit, prepared[i % 256].hash, false);
      now = process.hrtime.bigint();
    }
    best = Math.max(best, (i * 1e9) / Number(now - start));
  }
  return best;
}

function verifyBatch(dir: string): void {
  const lines = mixedLines();
  const file = join(dir, "mixed.ndjson");
  writeFileSync(file, lines.join("\n") + "\n");
  const ceiling = recoveryCeiling(lines);
  const args = ["verify", "--batch", file, "--attester", ADDRESS, "--now", String(NOW)];
  /** Lines per second of one whole process; exit 1 is expected (not every line is valid). */
  const rate = (nodeArgs: string[]): number => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [...nodeArgs, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const out = result.stdout.toString().trimEnd().split("\n");
    if (result.status !== 1 || out.length !== lines.length) {
      throw new Error(`verify --batch broken: exit ${result.status}, ${out.length} lines: ${result.stderr.toString()}`);
    }
    return lines.length / seconds;
  };
  const compiled: number[] = [];
  const before: number[] = [];
  for (let run = 0; run < RUNS_BATCH; run++) {
    compiled.push(rate(["bin/attest.js"]));
    before.push(rate(TS_NODE_CLI));
  }
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(
    `\n\`attest verify --batch\`, ${fmt(lines.length)} mixed lines (70 % valid, 10 % expired, 10 % tampered, 10 % not JSON), whole process on ${availableParallelism()} cores, best of ${RUNS_BATCH}\n`,
  );
  console.log("| path | lines/s | vs native recovery on one core |");
  console.log("|---|---:|---:|");
  console.log(`| ceiling: libsecp256k1 ecdsaRecover, one core, in this process | ${fmt(ceiling)} | 1.00x |`);
  console.log(
    `| \`node bin/attest.js verify --batch\` (compiled) | ${fmt(Math.max(...compiled))} | ${(Math.max(...compiled) / ceiling).toFixed(2)}x |`,
  );
  console.log(
    `| before: ts-node over src/ (workers bundled by esbuild) | ${fmt(Math.max(...before))} | ${(Math.max(...before) / ceiling).toFixed(2)}x |`,
  );
  console.log(`\ncompiled / ceiling = ${(Math.max(...compiled) / ceiling).toFixed(2)}x (target >= 0.8x)`);
}

/** What a started service measured: milliseconds to ready, RSS (MB) right after, and what it then serves. */
type ServiceStart = { readyMs: number; rssMb: number; pools: number; attestations: number };

/** Starts the service, waits for its ready line; {@link ServiceStart}. */
async function serviceStart(nodeArgs: string[]): Promise<ServiceStart> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-startup-"));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    const readyMs = await new Promise<number>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (/ready: attester/.test(output)) resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
      child.once("exit", (code) => reject(new Error(`the service exited ${code} before ready:\n${output}`)));
    });
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
    const url = /serving (http:\/\/[^\s/]+)\/api\/v1/.exec(output)?.[1];
    if (url === undefined) throw new Error(`no serving line in the service's output:\n${output}`);
    const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { pools: number; attestations: number };
    return { readyMs, rssMb, pools: health.pools, attestations: health.attestations };
  } finally {
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function service(): Promise<void> {
  const compiled = await serviceStart(["dist/main/start.js"]);
  const before = await serviceStart(["-r", "ts-node/register/transpile-only", "src/main/start.ts"]);
  console.log(`\n\`npm start\`'s service on the demo defaults (120 simulated days, 3 chains), one run each\n`);
  console.log("| path | time to ready (s) | RSS after ready (MB) | pools tracked | with an attestation |");
  console.log("|---|---:|---:|---:|---:|");
  const row = (name: string, s: ServiceStart) =>
    `| ${name} | ${(s.readyMs / 1000).toFixed(1)} | ${s.rssMb.toFixed(0)} | ${s.pools} | ${s.attestations} |`;
  console.log(row("`node dist/main/start.js` (compiled)", compiled));
  console.log(row("before: ts-node over src/main/start.ts", before));
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  cliStart();
  const dir = mkdtempSync(join(tmpdir(), "bench-batch-"));
  try {
    verifyBatch(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_SERVICE !== "0") await service();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
