import { createLocalSigner } from "../../src/attest/signer";
import { expect } from "chai";
import { readChartStep } from "../../src/ingest/steps/defillamaChart";
import { issueStep } from "../../src/ingest/steps/issue";
import { writePass } from "../../src/ingest/writePass";
import { countAttestations } from "../../src/storage/attestations";
import type { Store } from "../../src/storage/openStore";
import { countPools } from "../../src/storage/pools";
import {
  runSyntheticPass,
  SYNTHETIC_KEY,
  syntheticPassData,
  syntheticPassTime,
  syntheticPools,
} from "../../testkit/syntheticPass";
import { forEachBackend } from "../helpers/storage/backends";
import { countQueries } from "../../testkit/queryCounter";

const N = 12;
/** What a tenfold larger pass may cost more: a statement or two where a batch needs one more chunk, never per pool. */
const SLACK = 3;

type Counts = { firstWrite: number; steadyWrite: number; steadyIssue: number; chartCheck: number };

/** The statements of a pass's store work for `pools` pools: pass 0's write phase, then pass 1's write and issuance. */
async function countPass(store: Store, pools: number): Promise<Counts> {
  const configs = syntheticPools(pools);
  const counter = countQueries(store);
  const write = (index: number) =>
    writePass(store.db, {
      pools: configs,
      data: syntheticPassData({ pools: configs, index }),
      feedsObservedAt: syntheticPassTime(index),
      freshnessWindowS: 3600,
    });
  const issue = (index: number) =>
    issueStep({
      db: store.db,
      pools: configs,
      issue: { signer: createLocalSigner(SYNTHETIC_KEY), lifetimeS: 86_400 },
      now: () => syntheticPassTime(index),
      freshnessWindowS: 3600,
      log: () => {},
    });
  counter.reset();
  await write(0);
  const firstWrite = counter.count();
  await issue(0);
  counter.reset();
  await write(1);
  const steadyWrite = counter.count();
  counter.reset();
  const issued = await issue(1);
  const steadyIssue = counter.count();
  // Every pool was issued an attestation on pass 0 and keeps it on pass 1: the work measured is the real one.
  expect(issued.data.map((outcome) => outcome.action)).to.deep.equal(configs.map(() => "kept"));
  expect(await countAttestations(store.db)).to.equal(pools);
  expect(await countPools(store.db)).to.equal(pools);
  counter.reset();
  const chart = await readChartStep({
    db: store.db,
    pools: configs,
    yieldsUrl: "http://127.0.0.1:9/never-asked",
    feedOptions: {},
    backfillBelowDays: 14,
  });
  expect(chart.report).to.equal(undefined); // every pool has 30 days: no request is made
  const chartCheck = counter.count();
  return { firstWrite, steadyWrite, steadyIssue, chartCheck };
}

describe("database round trips of a pass", function () {
  forEachBackend((openFresh) => {
    it(`costs the same statements, give or take ${SLACK}, for ${N} and ${10 * N} pools`, async function () {
      const small = await countPass(await openFresh(), N);
      const large = await countPass(await openFresh(), 10 * N);
      for (const key of Object.keys(small) as (keyof Counts)[]) {
        expect(large[key] - small[key], `${key}: ${small[key]} statements for ${N} pools, ${large[key]} for ${10 * N}`)
          .to.be.at.most(SLACK)
          .and.at.least(0);
      }
      // And small in absolute terms: a bounded number per pass, not per pool.
      expect(small.steadyWrite + small.steadyIssue).to.be.below(40);
    });

    it("writes every row, cursor and event of a batched pass once, the events in pool order", async function () {
      const store = await openFresh();
      const pools = syntheticPools(8);
      await runSyntheticPass(store, { pools, index: 0 });
      await runSyntheticPass(store, { pools, index: 1 });
      const daily = await store.db.selectFrom("pool_daily").select(["samples", "min_block"]).execute();
      // 30 backfilled days per pool, plus today's observed row with two samples (one per pass).
      expect(daily.filter((row) => row.min_block === null)).to.have.length(8 * 30);
      expect(daily.filter((row) => row.min_block !== null).map((row) => Number(row.samples))).to.deep.equal(
        Array(8).fill(2),
      );
      const kinds = await store.db.selectFrom("activity_events").select("kind").orderBy("id").execute();
      expect(kinds.map((row) => row.kind)).to.deep.equal([
        ...Array(8).fill("pool.fresh"),
        ...Array(8).fill("campaign.started"),
        ...Array(8).fill("attestation.issued"),
      ]);
      const cursors = await store.db.selectFrom("log_cursors").select("next_block").execute();
      expect(cursors.map((row) => row.next_block)).to.deep.equal(Array(6).fill("1076")); // 6 pairs, past pass 1's block
      const hourly = await store.db
        .selectFrom("pool_volume_hourly")
        .select((eb) => eb.fn.sum<number>("swaps").as("swaps"))
        .executeTakeFirstOrThrow();
      expect(Number(hourly.swaps)).to.equal(6 * 2 * 2); // two swaps per pair per pass, counted once each
    });
  });
});
