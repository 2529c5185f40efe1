/**
 * v1 verification throughput, in the same run:
 *
 * 1. One core: the library's `verifyAttestation` with each recovery backend (libsecp256k1 through the `secp256k1`
 *    N-API addon, and pure-JS @noble/curves) against the ceiling, raw libsecp256k1 public-key recovery of prepared
 *    inputs (the 32-byte hash, r‖s, recovery id). Target: the library (native) at >= 60 % of the ceiling.
 * 2. Bulk: NDJSON lines per second through `verifyAttestations` in one thread (the single-core figure), and through
 *    `attest verify --batch`'s runner (file in, result lines out) on 1 worker and on every core. Target: all cores at
 *    >= 1.6x the single-core figure on a 2-core machine.
 *
 * Run with `npm run bench:verify` (optional: BENCH_MS per measurement, default 1500; BENCH_ROUNDS, default 3;
 * BENCH_BATCH_LINES, default 60000; BENCH_MILLION=1 adds 1,000,000 valid lines through the batch runner, about a
 * minute on 2 cores). Rows are measured BENCH_ROUNDS times, interleaved, and the best round is kept (the machine is
 * shared). Prints Markdown tables; no asserts.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1";
import { ecdsaSign } from "secp256k1";
import { bytesToHex, type Hex } from "viem";
import { runVerifyBatch } from "../src/cli/commands/verify/batch";
import type { CliIo } from "../src/cli/types";
import { createAttestationMessage } from "../src/lib/createAttestationMessage";
import { getVerifyBackend } from "../src/lib/getVerifyBackend";
import { hashPersonalMessage } from "../src/lib/internal/hashPersonalMessage";
import { parseAttestationSignature } from "../src/lib/parseAttestationSignature";
import { setVerifyBackend } from "../src/lib/setVerifyBackend";
import type { Attestation } from "../src/lib/types";
import { verifyAttestation } from "../src/lib/verifyAttestation";
import { verifyAttestations } from "../src/lib/verifyAttestations";

const BENCH_MS = Number(process.env.BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH_LINES = Number(process.env.BENCH_BATCH_LINES ?? 60_000);
const COUNT = 256;
// Test key only (keccak256("heldout/attestation/v1/attester"), from the conformance vectors). Never fund it.
const KEY: Hex = "0xec7aac5d61263683eb80db189052b4f211f145268a59db7ce260be7db5831a5d";
const KEY_BYTES = Buffer.from(KEY.slice(2), "hex");
const ADDRESS = "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F";
const TIME = new Date(1765584000 * 1000);

// The addon's API as the package exports it from `secp256k1/bindings` (no silent fallback to elliptic).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped addon, typed by the cast
const native = require("secp256k1/bindings") as {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
};

/** Runs `fn(i)` in a loop for BENCH_MS and returns operations per second. */
function measureSync(fn: (i: number) => unknown): number {
  let i = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(BENCH_MS) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let k = 0; k < 16; k++) fn(i++);
    now = process.hrtime.bigint();
  }
  return (i * 1e9) / Number(now - start);
}

/** A distinct attestation per index, signed with libsecp256k1 (fast: the batch part needs many). */
function signed(n: number): Attestation {
  const fields = {
    chainId: [1, 42161, 8453][n % 3],
    confidence: (50 + (n % 50)) / 100,
    expiry: 1767225600 + n,
    horizon: 30,
    issuedAt: 1764547200 + n,
    pool: `0x${(0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640n + BigInt(n)).toString(16).padStart(40, "0")}`,
  };
  const { signature, recid } = ecdsaSign(
    hashPersonalMessage(createAttestationMessage({ attestation: fields })),
    KEY_BYTES,
  );
  return { ...fields, signature: `${bytesToHex(signature)}${(27 + recid).toString(16)}` };
}

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
const fmt = (ops: number) => Math.round(ops).toLocaleString("en-US");

function oneCore(attestations: Attestation[]) {
  const prepared = attestations.map((a) => {
    const sig = parseAttestationSignature({ signature: a.signature });
    return {
      hash: hashPersonalMessage(createAttestationMessage({ attestation: a })),
      rs: Buffer.from(sig.serialized.slice(2, 130), "hex"),
      r: sig.r,
      s: sig.s,
      bit: sig.yParity,
    };
  });
  const messages = attestations.map((a) => createAttestationMessage({ attestation: a }));
  const library = (backend: "native" | "js") => {
    setVerifyBackend({ backend });
    return measureSync((i) =>
      verifyAttestation({ attestation: attestations[i % COUNT], address: ADDRESS, time: TIME }),
    );
  };
  const rows = {
    ceiling: () =>
      measureSync((i) =>
        native.ecdsaRecover(prepared[i % COUNT].rs, prepared[i % COUNT].bit, prepared[i % COUNT].hash, false),
      ),
    libNative: () => library("native"),
    libJs: () => library("js"),
    noble: () =>
      measureSync((i) => {
        const p = prepared[i % COUNT];
        return new secp256k1.Signature(p.r, p.s).addRecoveryBit(p.bit).recoverPublicKey(p.hash);
      }),
    canonical: () => measureSync((i) => createAttestationMessage({ attestation: attestations[i % COUNT] })),
    hashing: () => measureSync((i) => hashPersonalMessage(messages[i % COUNT])),
  };
  // Sanity (outside the timed loops), and JIT warm-up on both backends.
  for (const backend of ["native", "js"] as const) {
    setVerifyBackend({ backend });
    for (let i = 0; i < 300; i++)
      if (!verifyAttestation({ attestation: attestations[i % COUNT], address: ADDRESS, time: TIME }).valid)
        throw new Error("benchmark setup is broken");
  }
  const best: Record<keyof typeof rows, number> = {
    ceiling: 0,
    libNative: 0,
    libJs: 0,
    noble: 0,
    canonical: 0,
    hashing: 0,
  };
  for (let round = 0; round < ROUNDS; round++)
    for (const key of Object.keys(rows) as (keyof typeof rows)[]) best[key] = Math.max(best[key], rows[key]());
  setVerifyBackend({ backend: "auto" });
  return best;
}

function printOneCore(best: ReturnType<typeof oneCore>) {
  const rows: [string, number][] = [
    ["ceiling: libsecp256k1 ecdsaRecover, N-API (prepared hash, r‖s, recovery id)", best.ceiling],
    [
      "library, native backend: verifyAttestation (canonical + keccak + strict rules + recover + compare)",
      best.libNative,
    ],
    ["library, js backend: verifyAttestation (same, @noble/curves recovery)", best.libJs],
    ["@noble/curves recoverPublicKey alone (the previous, pure-JS ceiling)", best.noble],
    ["part: createAttestationMessage only", best.canonical],
    ["part: EIP-191 keccak of the canonical message only", best.hashing],
  ];
  console.log(`\nv1 verification, one core (node ${process.version}, ${BENCH_MS} ms x ${ROUNDS} rounds, best round)\n`);
  console.log("| path | ops/s | µs/op | vs ceiling |");
  console.log("|---|---:|---:|---:|");
  for (const [name, ops] of rows)
    console.log(`| ${name} | ${fmt(ops)} | ${(1e6 / ops).toFixed(1)} | ${pct(ops, best.ceiling)} |`);
  console.log(`\nlibrary (native) / ceiling = ${pct(best.libNative, best.ceiling)} (target >= 60%)`);
  console.log(
    `library (js) / ceiling = ${pct(best.libJs, best.ceiling)}; native / js = ${(best.libNative / best.libJs).toFixed(1)}x`,
  );
}

/** An io that counts result lines and throws them away. */
function sinkIo(): { io: CliIo; lines: () => number } {
  let lines = 0;
  const io: CliIo = {
    stdout: (block) => {
      for (let i = block.indexOf("\n"); i !== -1; i = block.indexOf("\n", i + 1)) lines++;
      lines++;
    },
    stderr: () => undefined,
    readStdin: () => Promise.resolve(""),
    env: {},
  };
  return { io, lines: () => lines };
}

type Rate = { rate: number; cores: number };

/** Lines per second through the batch runner, and the CPU it got (process CPU time / wall time, all threads). */
async function batch(file: string, workers: number, expected: number): Promise<Rate> {
  const { io, lines } = sinkIo();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const code = await runVerifyBatch({ file, address: ADDRESS, time: TIME, workers, io });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  if (code !== 0 || lines() !== expected) throw new Error(`batch run broken: exit ${code}, ${lines()} lines`);
  return { rate: expected / seconds, cores: (used.user + used.system) / 1e6 / seconds };
}

const better = (a: Rate, b: Rate) => (b.rate > a.rate ? b : a);

async function bulk(attestations: Attestation[], dir: string) {
  const texts = attestations.map((a) => JSON.stringify(a));
  const lines = Array.from({ length: BATCH_LINES }, (_, i) => texts[i % texts.length]);
  const file = join(dir, "batch.ndjson");
  writeFileSync(file, lines.join("\n") + "\n");
  const cores = availableParallelism();
  // One thread, no workers: the library over the same lines, 256 at a time, with the same output formatting.
  const inThread = (): Rate => {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let i = 0; i < lines.length; i += 256) {
      const results = verifyAttestations({ attestations: lines.slice(i, i + 256), address: ADDRESS, time: TIME });
      results
        .map((r, k) =>
          JSON.stringify({ line: i + k + 1, valid: r.valid, expired: r.expired, attester: r.attester, error: r.error }),
        )
        .join("\n");
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    return { rate: lines.length / seconds, cores: (used.user + used.system) / 1e6 / seconds };
  };
  await batch(file, cores, BATCH_LINES); // warm-up: bundles the worker code once
  const zero: Rate = { rate: 0, cores: 0 };
  const best = { inThread: zero, one: zero, all: zero };
  for (let round = 0; round < ROUNDS; round++) {
    best.inThread = better(best.inThread, inThread());
    best.one = better(best.one, await batch(file, 1, BATCH_LINES));
    best.all = better(best.all, await batch(file, cores, BATCH_LINES));
  }
  console.log(
    `\nBulk verification, ${BATCH_LINES.toLocaleString("en-US")} valid NDJSON lines (${texts.length.toLocaleString("en-US")} distinct), native backend, best of ${ROUNDS}; batch rows include starting the workers\n`,
  );
  console.log("| path | lines/s | vs one thread | CPU obtained (cores) | lines per CPU-second |");
  console.log("|---|---:|---:|---:|---:|");
  const row = (name: string, r: Rate) =>
    console.log(
      `| ${name} | ${fmt(r.rate)} | ${pct(r.rate, best.inThread.rate)} | ${r.cores.toFixed(2)} | ${fmt(r.rate / r.cores)} |`,
    );
  row("verifyAttestations in one thread (+ result lines): the single-core figure", best.inThread);
  row("attest verify --batch runner, 1 worker", best.one);
  row(`attest verify --batch runner, ${cores} workers (availableParallelism)`, best.all);
  console.log(
    `\nall cores / single core = ${(best.all.rate / best.inThread.rate).toFixed(2)}x (target >= 1.6x on 2 cores); all cores / 1 worker = ${(best.all.rate / best.one.rate).toFixed(2)}x; load average at the end ${loadavg()[0].toFixed(2)} (other processes take cores from the workers)`,
  );
}

async function million(attestations: Attestation[], dir: string) {
  const file = join(dir, "million.ndjson");
  const texts = attestations.map((a) => JSON.stringify(a));
  // Written in blocks, so this process never holds the whole input: the RSS samples below are the runner's.
  const fd = openSync(file, "w");
  for (let i = 0; i < 1_000_000; i += 10_000)
    writeSync(fd, Array.from({ length: 10_000 }, (_, k) => texts[(i + k) % texts.length]).join("\n") + "\n");
  closeSync(fd);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(process.memoryUsage().rss / 1024 / 1024), 250);
  const { rate } = await batch(file, availableParallelism(), 1_000_000);
  clearInterval(sampler);
  const at = (f: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * f))].toFixed(0);
  console.log(
    `\n1,000,000 valid lines from a file (${(statSync(file).size / 1024 / 1024).toFixed(0)} MiB) through the batch runner on ${availableParallelism()} workers: ${(1_000_000 / rate).toFixed(1)} s, ${fmt(rate)} lines/s; process RSS (MiB, all threads) at 10/50/90 % of the run ${at(0.1)} / ${at(0.5)} / ${at(0.9)}, max ${Math.max(...samples).toFixed(0)}`,
  );
}

async function main(): Promise<void> {
  const attestations = Array.from({ length: Math.max(COUNT, 10_000) }, (_, n) => signed(n));
  const best = oneCore(attestations.slice(0, COUNT));
  printOneCore(best);
  const { backend } = getVerifyBackend();
  if (backend !== "native") throw new Error("libsecp256k1 did not load: the bulk figures would be pure JS");
  const dir = mkdtempSync(join(tmpdir(), "bench-verify-"));
  try {
    await bulk(attestations, dir);
    if (process.env.BENCH_MILLION === "1") await million(attestations, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
