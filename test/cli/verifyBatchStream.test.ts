import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { ecdsaSign } from "secp256k1";
import { bytesToHex } from "viem";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { hashPersonalMessage } from "../../src/lib/internal/hashPersonalMessage";
import vectors from "../vectors/attestation-v1.json";

const ROOT = join(__dirname, "..", "..");
const ATTESTER = vectors.attester.address;
const LINES = 1_000_000;
/** One line in ten is a real signed attestation (a full recovery); the others fail fast (a field is missing). */
const PERIOD = 10;
const MiB = 1024 * 1024;
// Test key only (the conformance vectors' attester). Never fund it.
const KEY = Buffer.from(vectors.attester.privateKey.slice(2), "hex");

/** 1,000 distinct signed attestations, reused round the input (every line is still verified from scratch). */
function signedLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const fields = {
      chainId: 1,
      confidence: 0.5,
      expiry: vectors.now + 86_400,
      horizon: 7,
      issuedAt: vectors.now,
      pool: `0x${(i + 1).toString(16).padStart(40, "0")}`,
    };
    const hash = hashPersonalMessage(createAttestationMessage({ attestation: fields }));
    const { signature, recid } = ecdsaSign(hash, KEY);
    return JSON.stringify({ ...fields, signature: `${bytesToHex(signature)}${(27 + recid).toString(16)}` });
  });
}

/** Resident and peak memory of a process, in MiB (Linux /proc), or null once it has exited. */
function memory(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    const sample = { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
    // A process that has exited but not yet been reaped (a zombie) still has a status file, without its memory lines.
    return Number.isFinite(sample.rss) && Number.isFinite(sample.peak) ? sample : null;
  } catch {
    return null;
  }
}

describe("attest verify --batch streams in bounded memory", function () {
  it(`verifies ${LINES.toLocaleString("en-US")} NDJSON lines from a pipe, in order, without growing`, async function () {
    this.timeout(600_000);
    const signed = signedLines(1_000);
    const line = (i: number) => (i % PERIOD === 0 ? signed[(i / PERIOD) % signed.length] : `{"chainId":${i}}`);
    const started = Date.now();
    const proc = spawn(
      process.execPath,
      ["bin/attest.js", "verify", "--batch", "-", "--attester", ATTESTER, "--now", String(vectors.now)],
      { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    proc.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const samples: { at: number; rss: number; peak: number; done: number }[] = [];

    // Reading: every result line is checked as it arrives (its number and verdict), with string tests only.
    let done = 0;
    let rest = "";
    let maxLag = 0;
    let written = 0;
    let bytes = 0;
    let mismatch: string | null = null;
    proc.stdout.setEncoding("utf8");
    proc.stdout.on("data", (text: string) => {
      const parts = (rest + text).split("\n");
      rest = parts.pop()!;
      for (const part of parts) {
        const valid = done % PERIOD === 0;
        const prefix = `{"line":${done + 1},"valid":${valid},"expired":false,`;
        if (mismatch === null && !part.startsWith(prefix)) mismatch = `line ${done + 1}: ${part.slice(0, 200)}`;
        done++;
      }
    });
    const sampler = setInterval(() => {
      const m = memory(proc.pid!);
      if (m !== null) samples.push({ at: Date.now() - started, ...m, done });
    }, 250);
    const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));

    // Writing, with backpressure: at most ~64 KiB ahead of what the pipe takes.
    const BLOCK = 1_000;
    for (let i = 0; i < LINES; i += BLOCK) {
      const block: string[] = [];
      for (let k = i; k < Math.min(i + BLOCK, LINES); k++) block.push(line(k));
      const text = block.join("\n") + "\n";
      written += block.length;
      bytes += Buffer.byteLength(text);
      maxLag = Math.max(maxLag, written - done);
      if (!proc.stdin.write(text)) await new Promise<void>((resolve) => proc.stdin.once("drain", () => resolve()));
    }
    proc.stdin.end();
    const code = await exited;
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;

    const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * fraction))];
    const peak = Math.max(...samples.map((s) => s.peak));
    const rows = [0.1, 0.25, 0.5, 0.75, 1].map((f) => at(f));
    console.log(
      `      ${LINES.toLocaleString("en-US")} lines (1 in ${PERIOD} a full recovery) in ${seconds.toFixed(1)} s ` +
        `(${Math.round(LINES / seconds).toLocaleString("en-US")} lines/s, ${Math.round(LINES / PERIOD / seconds).toLocaleString("en-US")} recoveries/s); ` +
        `input ${(bytes / MiB).toFixed(0)} MiB`,
    );
    console.log(
      `      child RSS (MiB) at 10/25/50/75/100 % of the run: ${rows.map((s) => s.rss.toFixed(0)).join(" / ")}; ` +
        `peak ${peak.toFixed(0)} MiB; most lines written ahead of results: ${maxLag.toLocaleString("en-US")}`,
    );

    expect(stderr).to.equal("");
    expect(mismatch).to.equal(null);
    expect(done).to.equal(LINES);
    expect(code).to.equal(1); // nine lines in ten are not attestations
    // The input is read only as results come out: a reader that ran ahead would be hundreds of thousands of lines
    // ahead (the whole input arrives in a few seconds). Pipes and stream buffers hold a few thousand short lines.
    expect(maxLag).to.be.lessThan(50_000);
    // Generous: the input alone is ~50 MB and the output ~110 MB; holding either would pass this only barely.
    expect(peak).to.be.lessThan(1024);
  });
});
