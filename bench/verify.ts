/**
 * v1 verifications per second on one core: the library's `verifyAttestation` against the ceiling, raw secp256k1
 * public-key recovery with the same crypto library (@noble/curves, the one viem uses), in the same run.
 *
 * Run with `npm run bench:verify` (optional: BENCH_MS per measurement, default 1500; BENCH_ROUNDS, default 3).
 * Each row is measured BENCH_ROUNDS times, interleaved, and the best round is kept (the machine is shared).
 * Prints a Markdown table; no asserts.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { type Hex, recoverMessageAddress } from "viem";
import { createAttestationMessage } from "../src/lib/createAttestationMessage";
import { hashPersonalMessage } from "../src/lib/internal/hashPersonalMessage";
import { parseAttestationSignature } from "../src/lib/parseAttestationSignature";
import { signAttestation } from "../src/lib/signAttestation";
import type { Attestation } from "../src/lib/types";
import { verifyAttestation } from "../src/lib/verifyAttestation";

const BENCH_MS = Number(process.env.BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNT = 256;
// Test key only (keccak256("heldout/attestation/v1/attester"), from the conformance vectors). Never fund it.
const KEY: Hex = "0xec7aac5d61263683eb80db189052b4f211f145268a59db7ce260be7db5831a5d";
const ADDRESS = "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F";

type Row = { name: string; ops: number };

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

async function measureAsync(fn: (i: number) => Promise<unknown>): Promise<number> {
  let i = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(BENCH_MS) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let k = 0; k < 16; k++) await fn(i++);
    now = process.hrtime.bigint();
  }
  return (i * 1e9) / Number(now - start);
}

async function main(): Promise<void> {
  // Distinct attestations, so nothing is cached between iterations except the signer's checksum.
  const attestations: Attestation[] = [];
  for (let n = 0; n < COUNT; n++) {
    const fields = {
      chainId: [1, 42161, 8453][n % 3],
      confidence: (50 + (n % 50)) / 100,
      expiry: 1767225600 + n,
      horizon: 30,
      issuedAt: 1764547200 + n,
      pool: `0x${(0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640n + BigInt(n)).toString(16).padStart(40, "0")}`,
    };
    attestations.push({ ...fields, signature: await signAttestation({ attestation: fields, privateKey: KEY }) });
  }
  const time = new Date(1765584000 * 1000);
  // Ceiling inputs, prepared outside the loop: the 32-byte hash and (r, s, recovery bit).
  const prepared = attestations.map((a) => {
    const sig = parseAttestationSignature({ signature: a.signature });
    return {
      hash: hashPersonalMessage(createAttestationMessage({ attestation: a })),
      r: sig.r,
      s: sig.s,
      bit: sig.yParity,
    };
  });
  const messages = attestations.map((a) => createAttestationMessage({ attestation: a }));

  // Sanity: every attestation verifies (outside the timed loops).
  for (const a of attestations)
    if (!verifyAttestation({ attestation: a, address: ADDRESS, time }).valid)
      throw new Error("benchmark setup is broken");

  const library = () =>
    measureSync((i) => verifyAttestation({ attestation: attestations[i % COUNT], address: ADDRESS, time }));
  const ceiling = () =>
    measureSync((i) => {
      const p = prepared[i % COUNT];
      return new secp256k1.Signature(p.r, p.s).addRecoveryBit(p.bit).recoverPublicKey(p.hash);
    });
  const canonical = () => measureSync((i) => createAttestationMessage({ attestation: attestations[i % COUNT] }));
  const hashing = () => measureSync((i) => hashPersonalMessage(messages[i % COUNT]));
  const viemPath = () =>
    measureAsync((i) =>
      recoverMessageAddress({ message: messages[i % COUNT], signature: attestations[i % COUNT].signature as Hex }),
    );

  // Warm up the JIT.
  for (let i = 0; i < 300; i++) {
    verifyAttestation({ attestation: attestations[i % COUNT], address: ADDRESS, time });
    const p = prepared[i % COUNT];
    new secp256k1.Signature(p.r, p.s).addRecoveryBit(p.bit).recoverPublicKey(p.hash);
  }

  const best = { library: 0, ceiling: 0, canonical: 0, hashing: 0, viem: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    best.ceiling = Math.max(best.ceiling, ceiling());
    best.library = Math.max(best.library, library());
    best.canonical = Math.max(best.canonical, canonical());
    best.hashing = Math.max(best.hashing, hashing());
    best.viem = Math.max(best.viem, await viemPath());
  }

  const rows: Row[] = [
    { name: "ceiling: @noble/curves recoverPublicKey (prepared hash, r, s)", ops: best.ceiling },
    { name: "library: verifyAttestation (canonical + keccak + recover + compare)", ops: best.library },
    { name: "viem recoverMessageAddress (async, generic path; for comparison)", ops: best.viem },
    { name: "part: createAttestationMessage only", ops: best.canonical },
    { name: "part: EIP-191 keccak of the canonical message only", ops: best.hashing },
  ];
  console.log(`\nv1 verification, one core (node ${process.version}, ${BENCH_MS} ms x ${ROUNDS} rounds, best round)\n`);
  console.log("| path | ops/s | µs/op | vs ceiling |");
  console.log("|---|---:|---:|---:|");
  for (const row of rows)
    console.log(
      `| ${row.name} | ${Math.round(row.ops).toLocaleString("en-US")} | ${(1e6 / row.ops).toFixed(1)} | ${((100 * row.ops) / best.ceiling).toFixed(1)}% |`,
    );
  console.log(`\nlibrary / ceiling = ${((100 * best.library) / best.ceiling).toFixed(1)}% (target >= 90%)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
