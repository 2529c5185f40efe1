/**
 * `npm run bench:model`: the walk-forward evaluation of the horizon model (docs/model.md#the-evaluation-walk-forward).
 * 1. Its figures on a store: `DATA_DIR` (default ./data, the demo's after `npm start`), when it holds one.
 * 2. Its cost as pools × days grow: synthetic pools (mean-reverting depth with withdrawals that return), up to
 *    1,000 pools × 365 days, timed in this process (the target: well within one pass interval, 900 s by default);
 *    every version on the largest set, with its time (v4 fits a pooled calibration per pool and day).
 * 3. Then `npm run bench:model` runs bench/modelFamilies.ts: every version on the process families (bench/families.ts),
 *    per family (`npm run bench:families` runs that part alone, with its environment: SEED, MODELS, POOLS, …).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ISSUER_RULE, readEvaluatedPools } from "../src/attest/refreshModelEvaluation";
import { HORIZON_MODELS, ISSUING_MODEL } from "../src/model/horizon";
import { evaluateModel, type EvaluatedPool, type ModelEvaluation } from "../src/model/evaluateModel";
import { openStore } from "../src/storage/openStore";
import { utcDay } from "../src/storage/poolDaily";

const DAY_MS = 86_400_000;

function syntheticPool(index: number, days: number, end: number): EvaluatedPool {
  let state = index + 1;
  const next = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const base = 100_000 + next() * 10_000_000;
  let depth = base;
  const daily = [];
  for (let i = 0; i < days; i++) {
    depth += (base - depth) * 0.08;
    depth = depth * (0.96 + next() * 0.08) * (next() < 0.015 ? 0.4 : 1);
    daily.push({ day: new Date(end - (days - i) * DAY_MS).toISOString().slice(0, 10), minDepthUsd: Math.round(depth) });
  }
  return { pool: `eip155:1:0x${index.toString(16).padStart(40, "0")}`, daily };
}

function describe(label: string, e: ModelEvaluation): void {
  console.log(`${label}: ${e.claims} claims, ${e.scored} scored, ${e.held} held, ${e.void} void`);
  console.log(
    `  Brier ${e.brier?.toFixed(4)} vs climatology ${e.baselineBrier?.toFixed(4)} (${e.brier !== null && e.baselineBrier !== null && e.brier < e.baselineBrier ? "beats it" : "does not beat it"})`,
  );
  console.log("  bucket        n   mean conf  held    within 0.10");
  for (const b of e.buckets) {
    const within = b.n >= 30 ? (Math.abs(b.holdRate - b.meanConfidence) <= 0.1 ? "yes" : "NO") : "(n < 30)";
    console.log(
      `  ${b.from.toFixed(2)}–${b.to.toFixed(2)} ${String(b.n).padStart(6)}   ${b.meanConfidence.toFixed(3)}     ${b.holdRate.toFixed(3)}   ${within}`,
    );
  }
  console.log(
    `  by horizon: ${e.byHorizon.map((h) => `${h.horizon}d n=${h.n} held ${(h.holdRate * 100).toFixed(1)} %`).join("; ")}`,
  );
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? "./data");
  const file = join(dataDir, "service.sqlite");
  if (process.env.DATABASE_URL || existsSync(file)) {
    const store = await openStore(
      process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, readOnly: true } : { file, readOnly: true },
    );
    try {
      const lastDay = utcDay(Math.floor(Date.now() / 1000) - 86_400);
      const pools = await readEvaluatedPools(store.db, { lastDay });
      for (const model of HORIZON_MODELS) {
        describe(
          `${model.id}${model === ISSUING_MODEL ? " (issuing)" : ""} on the store (${pools.length} pools, observed lows up to ${lastDay})`,
          evaluateModel(pools, { ...ISSUER_RULE, model }, lastDay),
        );
      }
    } finally {
      await store.close();
    }
  } else {
    console.log(`no store at ${file}: run npm start once for the demo's figures`);
  }
  console.log("\ncost (synthetic pools, this process):");
  console.log("  pools   days   claims      ms");
  const end = Date.UTC(2026, 0, 1);
  for (const [pools, days] of [
    [17, 120],
    [170, 365],
    [1000, 365],
  ]) {
    const input = Array.from({ length: pools }, (_, i) => syntheticPool(i, days, end));
    const started = process.hrtime.bigint();
    const lastDay = new Date(end - DAY_MS).toISOString().slice(0, 10);
    const e = evaluateModel(input, ISSUER_RULE, lastDay);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(
      `  ${String(pools).padStart(5)}  ${String(days).padStart(5)}  ${String(e.claims).padStart(7)}  ${ms.toFixed(0).padStart(6)}`,
    );
    if (pools === 1000) {
      for (const model of HORIZON_MODELS) {
        const modelStarted = process.hrtime.bigint();
        const evaluation = evaluateModel(input, { ...ISSUER_RULE, model }, lastDay);
        const modelMs = Number(process.hrtime.bigint() - modelStarted) / 1e6;
        describe(`  ${model.id} on synthetic 1,000 × 365 (${modelMs.toFixed(0)} ms)`, evaluation);
      }
    }
  }
}

void main();
