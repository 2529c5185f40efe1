import { expect } from "chai";
import { spawn } from "node:child_process";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Hex } from "viem";
import { GRADE_BATCH, gradeClaims } from "../../src/attest/gradeClaims";
import { issueAttestations } from "../../src/attest/issueAttestations";
import { createLocalSigner } from "../../src/attest/signer";
import { countAccuracyRecords } from "../../src/storage/accuracyRecords";
import { getLatestAttestation } from "../../src/storage/attestations";
import { DAY, NOW, POOL, START, seedSteadyPool } from "../helpers/attest/steadyPool";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const ROOT = join(__dirname, "..", "..");
const CHILD = join(__dirname, "..", "helpers", "reliability", "gradeChild.ts");
const KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
/** Claims to grade: two and a half batches, so the child is killed inside one of several transactions. */
const CLAIMS = Math.floor(GRADE_BATCH * 2.5);
const dayStart = (n: number) => Math.floor(START / DAY) * DAY + n * DAY;

/** Counts of the store file read directly: grades, their `claim.graded` events, attestations graded twice. */
function countsOf(file: string): { records: number; events: number; twice: number; integrity: string } {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const one = (text: string) => Number((db.prepare(text).get() as { n: number }).n);
    return {
      records: one("SELECT count(*) AS n FROM accuracy_records"),
      events: one("SELECT count(*) AS n FROM activity_events WHERE kind = 'claim.graded'"),
      twice: one(
        "SELECT count(*) AS n FROM (SELECT attestation_id FROM accuracy_records GROUP BY attestation_id HAVING count(*) > 1)",
      ),
      integrity: String(db.pragma("integrity_check", { simple: true })),
    };
  } finally {
    db.close();
  }
}

describe("reliability: grading killed with SIGKILL writes nothing twice and loses nothing", function () {
  this.timeout(300_000);
  let temp: TempStore;
  let file: string;
  let horizon: number;

  before(async function () {
    temp = await openTempStore({ prefix: "grade-crash-" });
    file = temp.file;
    const db = temp.store.db;
    // One real signed attestation as the template; CLAIMS pools each with a copy of it, issued on day 40, and the
    // observed lows of its window (every other pool's claim fails on its window's third day).
    await seedSteadyPool(db, { now: NOW });
    await issueAttestations({
      db,
      pools: [POOL],
      signer: createLocalSigner(KEY),
      lifetimeS: DAY,
      now: NOW,
      freshnessWindowS: 3600,
    });
    const template = (await getLatestAttestation(db, POOL.chainId, POOL.address))!;
    horizon = Number(template.horizon_days);
    await db.transaction().execute(async (trx) => {
      for (let i = 1; i < CLAIMS; i++) {
        const address = `0x${(0x1000 + i).toString(16).padStart(40, "0")}`;
        const id = `0x${i.toString(16).padStart(64, "0")}`;
        await trx
          .insertInto("attestations")
          .values({ ...template, id, address, supersedes: `none:${address}` })
          .execute();
        const rows = [];
        for (let day = 41; day <= 40 + horizon; day++) {
          const low = i % 2 === 0 && day === 43 ? 100 : 1e6;
          const at = dayStart(day) + 3600;
          const key = {
            chain_id: POOL.chainId,
            address,
            day: new Date(dayStart(day) * 1000).toISOString().slice(0, 10),
          };
          rows.push({
            ...key,
            min_depth_usd: low,
            min_observed_at: at,
            min_block: String(1000 + day),
            last_observed_at: at,
            samples: 1,
          });
        }
        await trx.insertInto("pool_daily").values(rows).execute();
      }
    });
  });

  after(async function () {
    await temp?.cleanup();
  });

  it(`kills the grading process inside a batch of ${GRADE_BATCH}; the next run grades the rest, each claim once with one event`, async function () {
    const now = dayStart(41 + horizon) + 3600;
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", CHILD, file, String(now)], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    // Kill it while it works on its second batch: after the first batch committed, before the second did (at 60 % of
    // the time the first batch took; the kill lands in its reads or its one write transaction).
    let output = "";
    let firstStart = 0;
    let firstTook = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (firstStart === 0 && output.includes("batch-start\n")) firstStart = Date.now();
        if (firstTook === 0 && /graded \d+\nbatch-start\n/.test(output)) {
          firstTook = Date.now() - firstStart;
          setTimeout(
            () => {
              child.kill("SIGKILL");
              resolve();
            },
            Math.max(1, Math.floor(firstTook * 0.6)),
          );
        }
      });
      child.once("exit", () => reject(new Error(`the child ended before it was killed:\n${output}`)));
    });
    expect(await exited).to.equal("SIGKILL");

    const killed = countsOf(file);
    expect(killed.integrity).to.equal("ok");
    // Every grade the killed process committed has its event, and a batch is all or nothing.
    expect(killed.events).to.equal(killed.records);
    expect(killed.twice).to.equal(0);
    expect(killed.records % GRADE_BATCH).to.equal(0);
    expect(killed.records).to.be.within(GRADE_BATCH, CLAIMS - 1);

    // The next leader (this process, its connection open all along) grades what is left: every claim once.
    for (;;) {
      const counts = await gradeClaims(temp.store.db, { now });
      if (counts.held + counts.failed + counts.void === 0) break;
    }
    expect(await countAccuracyRecords(temp.store.db)).to.equal(CLAIMS);
    const done = countsOf(file);
    expect(done).to.deep.equal({ records: CLAIMS, events: CLAIMS, twice: 0, integrity: "ok" });
  });
});
