/**
 * Database round trips of one ingestion pass for 17, 170 and 1,700 pools, on SQLite and on a throwaway local
 * PostgreSQL (`testkit/postgres.ts`; skipped with a note when it cannot start). Every statement the store
 * sends is counted (`countQueries`: the connections the store's Kysely executor hands out are wrapped, so `begin`
 * and `commit` count too); on PostgreSQL each is one round trip.
 *
 * A pass here is its store work over synthetic source data (`testkit/syntheticPass.ts`): `writePass`
 * with every pool read on chain, two swaps per pair, the yields feed, one Merkl campaign per pool and dex volumes,
 * then `issueStep` (read, sign, write). Pass 0 is a first pass (30 days of chart history backfilled, an attestation
 * issued per pool); passes 1–3 are the steady state (every attestation kept); pass 100 comes after every attestation
 * has expired (one day) and issues a new one per pool. Also counted: the read phase's store
 * reads (`readChartStep`'s history check, against a feed server that is never asked because no history is short) and
 * the run bookkeeping of `runIngestionPass` with no source (its run row, the interrupted-run check and its
 * `ingest.pass` event). Run with `npm run bench:roundtrips`. Prints Markdown tables.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runIngestionPass } from "../src/ingest/runIngestionPass";
import { readChartStep } from "../src/ingest/steps/defillamaChart";
import { openStore, type Store } from "../src/storage/openStore";
import { runSyntheticPass, syntheticPassTime, syntheticPools } from "../testkit/syntheticPass";
import { countQueries } from "../testkit/queryCounter";
import { freshPostgresUrl, sharedPostgres, type TestPostgres } from "../testkit/postgres";

const SIZES = [17, 170, 1700];
const STEADY_PASSES = 3;

type Row = { pools: number; first: number; steady: number; reissue: number; chartCheck: number; bookkeeping: number };

/** A pass after every attestation of the run has expired (lifetime one day): each pool gets a new one. */
const REISSUE_INDEX = 100;

async function measure(open: () => Promise<Store>, pools: number): Promise<Row> {
  const store = await open();
  try {
    const configs = syntheticPools(pools);
    const counter = countQueries(store);
    await runSyntheticPass(store, { pools: configs, index: 0 });
    const first = counter.count();
    const steady: number[] = [];
    for (let index = 1; index <= STEADY_PASSES; index++) {
      counter.reset();
      await runSyntheticPass(store, { pools: configs, index });
      steady.push(counter.count());
    }
    counter.reset();
    await runSyntheticPass(store, { pools: configs, index: REISSUE_INDEX });
    const reissue = counter.count();
    counter.reset();
    await readChartStep({
      db: store.db,
      pools: configs,
      yieldsUrl: "http://127.0.0.1:9/never-asked",
      feedOptions: {},
      backfillBelowDays: 14,
    });
    const chartCheck = counter.count();
    counter.reset();
    const now = () => syntheticPassTime(REISSUE_INDEX + 1);
    await runIngestionPass({
      store,
      pools: [],
      chains: [],
      feeds: {},
      issue: false,
      now,
      freshnessWindowS: 3600,
      log: () => {},
    });
    const bookkeeping = counter.count();
    return { pools, first, steady: Math.max(...steady), reissue, chartCheck, bookkeeping };
  } finally {
    await store.close();
  }
}

function table(title: string, rows: Row[]): string {
  const lines = [
    `### ${title}`,
    "",
    "| pools | first pass | steady pass | steady per pool | re-issue pass | read-phase store reads | run bookkeeping |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.pools} | ${r.first} | ${r.steady} | ${(r.steady / r.pools).toFixed(2)} | ${r.reissue} | ${r.chartCheck} | ` +
        `${r.bookkeeping} |`,
    ),
  ];
  return lines.join("\n");
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-roundtrips-"));
  let server: TestPostgres | null = null;
  try {
    let n = 0;
    const sqlite: Row[] = [];
    for (const pools of SIZES)
      sqlite.push(await measure(() => openStore({ file: join(dir, `s${++n}.sqlite`) }), pools));
    console.log(table("SQLite (statements per pass)", sqlite));
    console.log();
    let postgres: Row[] | null = null;
    try {
      server = await sharedPostgres();
      postgres = [];
      for (const pools of SIZES) {
        postgres.push(await measure(async () => openStore({ databaseUrl: await freshPostgresUrl() }), pools));
      }
    } catch (error) {
      console.log(`PostgreSQL not measured: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (postgres) console.log(table("PostgreSQL (round trips per pass)", postgres));
    console.log();
    console.log(
      "first pass: pass 0 (chart backfill, an attestation per pool); steady pass: the most of passes 1–3 " +
        "(the write phase and issuance, every attestation kept); re-issue pass: a pass once every attestation has " +
        "expired (a new one per pool); read-phase store reads: the chart step's history check; run bookkeeping: " +
        "runIngestionPass with no pool and no source.",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server?.stop();
  }
}

void main();
