import { expect } from "chai";
import {
  InvalidCursorError,
  InvalidParameterError,
  NoPoolsError,
  RepeatedPoolError,
  TooManyPoolsError,
} from "../../src/errors/market";
import { InvalidPoolIdError } from "../../src/errors/pool";
import { AmbiguousPoolError, PoolNotFoundError } from "../../src/errors/poolLookup";
import { comparePools } from "../../src/read/comparePools";
import type { ReadContext } from "../../src/read/context";
import { getActivity } from "../../src/read/getActivity";
import { getLaunchPosition } from "../../src/read/getLaunchPosition";
import { getLiquidityMap } from "../../src/read/getLiquidityMap";
import { getRoadmap } from "../../src/read/getRoadmap";
import { getVolume } from "../../src/read/getVolume";
import { appendActivity } from "../../src/storage/activity";
import type { Store } from "../../src/storage/openStore";
import { forEachBackend, type OpenFresh } from "../helpers/storage/backends";
import { DAY, HOUR, IDS, M, MARKET_NOW, seedMarket } from "../helpers/read/seedMarket";
import { scoreKeys, timeLike } from "../helpers/read/walk";
import { rejection } from "../helpers/rejection";

const WINDOW = 3600;

/** The market readers over one backend: a seeded store shared by the read-only cases, fresh stores for the rest. */
function marketReaders(openFresh: OpenFresh) {
  let context: ReadContext;
  let seeded: Store;
  const contextOf = (store: Store, windowS = WINDOW): ReadContext => ({
    db: store.db,
    freshnessWindowS: windowS,
    now: () => MARKET_NOW,
  });

  before(async function () {
    this.timeout(60_000);
    seeded = await openFresh();
    await seedMarket(seeded);
    context = contextOf(seeded);
  });

  describe("getVolume", function () {
    it("sums the window's complete days of fresh pools, with null (no data) apart from 0 (no swap)", async function () {
      const volume = await getVolume(context, { days: 3 });
      expect(volume.window).to.deep.equal({ from: "2026-01-12", to: "2026-01-14", days: 3 });
      expect(volume.days).to.deep.equal([
        { date: "2026-01-12", volumeUsd: 101, pools: 2, complete: false },
        { date: "2026-01-13", volumeUsd: 1202, pools: 3, complete: true },
        { date: "2026-01-14", volumeUsd: 303, pools: 3, complete: true },
      ]);
      expect(volume.heatmap).to.deep.equal({
        venues: ["sushiswap", "uniswap-v2"],
        dates: ["2026-01-12", "2026-01-13", "2026-01-14"],
        cells: [
          [null, 1000, 0],
          [101, 202, 303],
        ],
        source: "swap-logs",
      });
      expect(volume.asOf).to.equal(MARKET_NOW);
    });

    it("holds a pool with stale volume out of every total and ranking, and lists it with what it held out", async function () {
      const volume = await getVolume(context, { days: 3 });
      // c (chain 8453, uniswap-v2) has 15,000 in the window: counted, 8453 would be 15,006 and uniswap-v2 15,606.
      expect(volume.byChain).to.deep.equal([
        { chainId: 1, volumeUsd: 1600, pools: 2, source: "swap-logs" },
        { chainId: 8453, volumeUsd: 6, pools: 1, source: "swap-logs" },
      ]);
      expect(volume.byVenue).to.deep.equal([
        { venue: "sushiswap", volumeUsd: 1000, pools: 1, source: "swap-logs" },
        { venue: "uniswap-v2", volumeUsd: 606, pools: 2, source: "swap-logs" },
      ]);
      expect(volume.byTurnover.map((row) => row.id)).to.not.include(IDS.c);
      expect(volume.stale).to.deep.include({
        id: IDS.c,
        field: "volume24hUsd",
        value: 900_000,
        observedAt: MARKET_NOW - 2 * HOUR,
        windowVolumeUsd: 15_000,
        source: "swap-logs",
      });
      expect(volume.pools).to.deep.equal({ counted: 3, heldOut: 1 });
    });

    it("ranks turnover over fresh volume AND fresh depth only, highest first", async function () {
      const volume = await getVolume(context, { days: 3 });
      expect(volume.byTurnover).to.deep.equal([
        {
          id: IDS.a,
          chainId: 1,
          venue: "uniswap-v2",
          volume24hUsd: 500_000,
          depthUsd: 1_000_000,
          turnover: 0.5,
          source: "swap-logs",
        },
        {
          id: IDS.b,
          chainId: 1,
          venue: "sushiswap",
          volume24hUsd: 200_000,
          depthUsd: 2_000_000,
          turnover: 0.1,
          source: "swap-logs",
        },
      ]);
      // d's volume is fresh but its depth is stale: out of the ranking, its depth listed beside it.
      expect(volume.stale).to.deep.include({
        id: IDS.d,
        field: "depthUsd",
        value: 5_000_000,
        observedAt: MARKET_NOW - 2 * HOUR,
        source: "swap-logs",
      });
    });

    it("lists the first turnoverLimit pools by turnover and says of how many", async function () {
      const volume = await getVolume(context, { days: 3, turnoverLimit: 1 });
      expect(volume.byTurnover.map((row) => row.id)).to.deep.equal([IDS.a]);
      expect(volume.byTurnoverTotal).to.equal(2);
      const error = await rejection(getVolume(context, { turnoverLimit: 0 }));
      expect((error as InvalidParameterError).field).to.equal("turnoverLimit");
    });

    it("shows today's partial day apart and never sums it", async function () {
      const volume = await getVolume(context, { days: 3 });
      expect(volume.today).to.deep.equal({ date: "2026-01-15", volumeUsd: 64, pools: 3, complete: false });
      expect(volume.byChain[0].volumeUsd).to.equal(1600); // 1,600 + today's 60 would be 1,660
    });

    it("publishes the dex-volumes feed as separate, labelled figures, holding out a chain the feed has not refreshed", async function () {
      const volume = await getVolume(context, { days: 3 });
      expect(volume.feed.byChain).to.deep.equal([
        { chain: "Ethereum", volumeUsd: 6_500_000, days: 3, source: "defillama-dexs" },
      ]);
      expect(volume.feed.byVenue.map((row) => row.venue)).to.deep.equal(["Curve", "Uniswap V2"]);
      expect(volume.stale).to.deep.include({
        id: "defillama-dexs:Base",
        field: "volumeUsd",
        value: 4_000_000,
        observedAt: MARKET_NOW - DAY,
        source: "defillama-dexs",
      });
    });

    it("counts the stale pool once the freshness window covers it", async function () {
      const volume = await getVolume(contextOf(seeded, 3 * HOUR), { days: 3 });
      expect(volume.byChain.find((row) => row.chainId === 8453)?.volumeUsd).to.equal(15_006);
      expect(volume.stale.filter((entry) => entry.source === "swap-logs")).to.deep.equal([]);
    });

    it("says so when there is no data: nulls and empty lists, never invented zeros", async function () {
      const empty = await getVolume(contextOf(await openFresh()), { days: 2 });
      expect(empty.days).to.deep.equal([
        { date: "2026-01-13", volumeUsd: null, pools: 0, complete: false },
        { date: "2026-01-14", volumeUsd: null, pools: 0, complete: false },
      ]);
      expect(empty.heatmap).to.deep.equal({
        venues: [],
        dates: ["2026-01-13", "2026-01-14"],
        cells: [],
        source: "swap-logs",
      });
      for (const list of [empty.byChain, empty.byVenue, empty.byTurnover, empty.feed.byChain, empty.stale]) {
        expect(list).to.deep.equal([]);
      }
    });

    it("defaults to 30 days and refuses a window outside 1–365", async function () {
      expect((await getVolume(context)).days).to.have.length(30);
      for (const days of [0, 366, 1.5]) {
        const error = await rejection(getVolume(context, { days }));
        expect(error).to.be.instanceOf(InvalidParameterError);
        expect((error as InvalidParameterError).field).to.equal("days");
      }
    });
  });

  describe("getLiquidityMap", function () {
    it("sums fresh depths only per chain and lists the held-out depths beside each total", async function () {
      const map = await getLiquidityMap(context);
      expect(map.chains.map((chain) => [chain.chainId, chain.totalDepthUsd, chain.depthPools])).to.deep.equal([
        [1, 21_000_000, 3], // a 1M + b 2M + e 18M (b's stale APY does not touch its depth)
        [8453, 300_000, 1], // c only: d's 5M depth is stale
        [42161, 8_000_000, 2], // h 1M + f 7M; g never observed
      ]);
      expect(map.chains[1].stale).to.deep.equal([
        { id: IDS.d, field: "depthUsd", value: 5_000_000, observedAt: MARKET_NOW - 2 * HOUR },
      ]);
    });

    it("pages the pools of each chain by id without changing totals, the calendar or stale", async function () {
      const full = await getLiquidityMap(context);
      const page = await getLiquidityMap(context, { limit: 1, offset: 1 });
      for (const [i, chain] of page.chains.entries()) {
        expect(chain.poolsTotal).to.equal(full.chains[i].pools.length);
        expect(chain.pools.map((pool) => pool.id)).to.deep.equal(
          full.chains[i].pools.slice(1, 2).map((pool) => pool.id),
        );
        expect(chain.totalDepthUsd).to.equal(full.chains[i].totalDepthUsd);
        expect(chain.stale).to.deep.equal(full.chains[i].stale);
      }
      expect(page.stale).to.deep.equal(full.stale);
      expect(page.expiryCalendar).to.deep.equal(full.expiryCalendar);
      const base = await getLiquidityMap(context, { chainId: 8453 });
      expect(base.chains.map((chain) => chain.chainId)).to.deep.equal([8453]);
      expect(base.stale.every((entry) => entry.id.startsWith("eip155:8453:"))).to.equal(true);
      for (const bad of [{ limit: 0 }, { limit: 1001 }, { offset: -1 }, { chainId: 0 }]) {
        let error: unknown;
        try {
          await getLiquidityMap(context, bad);
        } catch (caught) {
          error = caught;
        }
        expect((error as { code?: string })?.code, JSON.stringify(bad)).to.equal("INVALID_PARAMETER");
      }
    });

    it("judges each dimension by its own observation time; null is not measured, never stale", async function () {
      const pools = (await getLiquidityMap(context)).chains.flatMap((chain) => chain.pools);
      const byId = Object.fromEntries(pools.map((pool) => [pool.id, pool]));
      expect(byId[IDS.b]).to.include({ depthUsd: 2_000_000, yieldPct: 7, stale: true });
      expect(byId[IDS.b].staleFields).to.deep.equal(["yieldPct"]);
      expect(byId[IDS.c].staleFields).to.deep.equal(["volume24hUsd"]);
      expect(byId[IDS.f]).to.include({ exitabilityUsd: 7_000_000, yieldPct: 1.1, volume24hUsd: null });
      expect(byId[IDS.f].staleFields).to.deep.equal(["yieldPct"]);
      expect(byId[IDS.e]).to.include({ yieldPct: 3.2, exitabilityUsd: 18_000_000, volume24hUsd: null, stale: false });
      expect(byId[IDS.a]).to.include({ exitabilityUsd: null });
      expect(byId[IDS.g]).to.deep.include({
        depthUsd: null,
        volume24hUsd: null,
        yieldPct: null,
        exitabilityUsd: null,
        staleFields: [],
        stale: false,
      });
    });

    it("places each pool's depth once, on the day its LAST known campaign ends, fresh depths summed", async function () {
      const { expiryCalendar } = await getLiquidityMap(context);
      expect(expiryCalendar.map((date) => [date.date, date.depthUsd, date.pools.map((pool) => pool.id)])).to.deep.equal(
        [
          ["2026-02-01", 3_000_000, [IDS.a, IDS.b, IDS.d]], // b runs two campaigns; d's stale 5M is listed, not summed
          ["2026-03-01", 18_000_000, [IDS.e]],
        ],
      );
      const ids = expiryCalendar.flatMap((date) => date.pools.map((pool) => pool.id));
      expect(new Set(ids).size).to.equal(ids.length);
      const b = expiryCalendar[0].pools.find((pool) => pool.id === IDS.b)!;
      expect(b.campaigns.map((campaign) => campaign.id)).to.deep.equal(["cb1", "cb2"]);
      // a's Merkl id also names a campaign on chain 8453: campaigns match on the pool's own chain only.
      const a = expiryCalendar[0].pools.find((pool) => pool.id === IDS.a)!;
      expect(a.campaigns.map((campaign) => campaign.id)).to.deep.equal(["ca"]);
      expect(expiryCalendar[0].pools.find((pool) => pool.id === IDS.d)).to.include({
        stale: true,
        depthUsd: 5_000_000,
      });
    });

    it("lists a borrow-side campaign of a pool's identifier with its type and chain, never placing the pool by it", async function () {
      // The same campaign id as b's first campaign, paid on another chain: a campaign of its own.
      const borrow = {
        ...(await seeded.db.selectFrom("campaigns").selectAll().where("id", "=", "cb1").executeTakeFirstOrThrow()),
        distribution_chain_id: 8453,
        opportunity_id: "opp-b-borrow",
        type: "AAVE_BORROW",
        end_ts: Date.UTC(2026, 3, 1) / 1000,
      };
      await seeded.db.insertInto("campaigns").values(borrow).execute();
      try {
        const { expiryCalendar } = await getLiquidityMap(context);
        const dates = expiryCalendar.filter((date) => date.pools.some((pool) => pool.id === IDS.b));
        expect(dates.map((date) => date.date)).to.deep.equal(["2026-02-01"]);
        const b = dates[0].pools.find((pool) => pool.id === IDS.b)!;
        expect(b.campaigns.map((c) => [c.id, c.distributionChainId, c.type])).to.deep.equal([
          ["cb1", 1, "CLAMM"],
          ["cb2", 1, "CLAMM"],
          ["cb1", 8453, "AAVE_BORROW"],
        ]);
      } finally {
        await seeded.db
          .deleteFrom("campaigns")
          .where("distribution_chain_id", "=", 8453)
          .where("id", "=", "cb1")
          .execute();
      }
    });

    it("lists every stale value of the payload once", async function () {
      const { stale } = await getLiquidityMap(context);
      expect(stale.map((entry) => `${entry.id} ${entry.field}`)).to.have.members([
        `${IDS.b} yieldPct`,
        `${IDS.c} volume24hUsd`,
        `${IDS.d} depthUsd`,
        `${IDS.f} yieldPct`,
      ]);
    });

    it("is empty lists when nothing is tracked", async function () {
      const map = await getLiquidityMap(contextOf(await openFresh()));
      expect(map).to.deep.include({ chains: [], expiryCalendar: [], stale: [] });
    });
  });

  describe("comparePools", function () {
    it("returns the pools in the order asked, in any id shape, and names the largest fresh value per field", async function () {
      const result = await comparePools(context, {
        pools: [`42161:${M.h}`, M.e.toUpperCase().replace("0X", "0x"), IDS.a],
      });
      expect(result.pools.map((pool) => pool.id)).to.deep.equal([IDS.h, IDS.e, IDS.a]);
      expect(result.largest).to.deep.equal({
        depthUsd: [IDS.e],
        volume24hUsd: [IDS.a],
        // Like with like: a's APY (4.5 %, the largest of the AMM pools) and e's supply rate (the lending reserves').
        yieldPct: [IDS.e, IDS.a],
        exitabilityUsd: [IDS.e],
      });
    });

    it("lists every pool of a tie, and [] for a field no compared pool has fresh", async function () {
      const result = await comparePools(context, { pools: [IDS.a, IDS.h] });
      expect(result.largest.depthUsd).to.deep.equal([IDS.a, IDS.h]);
      expect(result.largest.exitabilityUsd).to.deep.equal([]);
    });

    it("never names a stale value as the largest, and lists it beside", async function () {
      // b's APY (7 %) is larger than a's (4.5 %) but stale; d's depth (5M) is larger than a's but stale.
      const result = await comparePools(context, { pools: [IDS.b, IDS.a, IDS.d] });
      expect(result.largest.yieldPct).to.deep.equal([IDS.a]);
      expect(result.largest.depthUsd).to.deep.equal([IDS.b]);
      expect(result.stale.map((entry) => `${entry.id} ${entry.field}`)).to.deep.equal([
        `${IDS.b} yieldPct`,
        `${IDS.d} depthUsd`,
      ]);
    });

    it("refuses 0 or 5+ pools, a repeated pool in any shape, malformed, unknown and ambiguous ids", async function () {
      expect(await rejection(comparePools(context, { pools: [] }))).to.be.instanceOf(NoPoolsError);
      const five = [IDS.a, IDS.b, IDS.c, IDS.d, IDS.e];
      expect(await rejection(comparePools(context, { pools: five }))).to.be.instanceOf(TooManyPoolsError);
      const repeated = await rejection(
        comparePools(context, { pools: [IDS.a, `1:${M.a.toUpperCase().replace("0X", "0x")}`] }),
      );
      expect(repeated).to.be.instanceOf(RepeatedPoolError);
      expect((repeated as RepeatedPoolError).pool).to.equal(IDS.a);
      expect(await rejection(comparePools(context, { pools: [IDS.a, M.a] }))).to.be.instanceOf(RepeatedPoolError);
      const invalid = await rejection(comparePools(context, { pools: [IDS.a, "nope"] }));
      expect(invalid).to.be.instanceOf(InvalidPoolIdError);
      expect((invalid as InvalidPoolIdError).field).to.equal("pools");
      expect(await rejection(comparePools(context, { pools: [`10:${M.a}`] }))).to.be.instanceOf(PoolNotFoundError);
    });

    it("refuses a bare address tracked on two chains", async function () {
      const store = await openFresh();
      for (const chainId of [1, 10]) {
        await store.db
          .insertInto("pools")
          .values({
            chain_id: chainId,
            address: M.a,
            kind: "amm",
            symbol: "X",
            protocol: "p",
            created_at: 0,
            updated_at: 0,
          })
          .execute();
      }
      expect(await rejection(comparePools(contextOf(store), { pools: [M.a] }))).to.be.instanceOf(AmbiguousPoolError);
    });
  });

  describe("getRoadmap", function () {
    it("computes each item's counts from the store at request time", async function () {
      const { items } = await getRoadmap(context);
      const counts = Object.assign({}, ...items.map((item) => item.counts)) as Record<string, number | null>;
      expect(counts).to.deep.equal({
        poolsTracked: 8,
        poolsAttested: 3,
        attestationsIssued: 3,
        ingestPasses: 0,
        eventsLogged: 10,
        campaignsTracked: 7,
        liquidityRequestsReceived: 1,
        attestersBonded: 1, // two registered, one requested unbonding
        claimsPending: 3,
        claimsGraded: 0,
      });
      expect(items.every((item) => ["shipped", "building", "planned"].includes(item.status))).to.equal(true);
    });

    it("reports attesters bonded as null (unknown), not 0, when the registry's log has never been read", async function () {
      const { items } = await getRoadmap(contextOf(await openFresh()));
      expect(items.find((item) => item.id === "registry")?.counts).to.deep.equal({ attestersBonded: null });
      expect(items.find((item) => item.id === "grading")?.counts).to.deep.equal({ claimsPending: 0, claimsGraded: 0 });
    });
  });

  describe("getLaunchPosition", function () {
    it("measures every gate from the store, in dependency order, and holds at the first that is not clear", async function () {
      const launch = await getLaunchPosition(context);
      expect(launch.market).to.deep.include({ id: "aave-v3", protocol: "aave-v3", kind: "lending" });
      expect(launch.gates.map((gate) => [gate.id, gate.status, gate.measured])).to.deep.equal([
        ["reserves-observed", "not-clear", 2],
        ["exitable-liquidity", "clear", 25_000_000],
        ["history", "not-clear", 30],
        ["reserves-attested", "not-clear", 1],
        ["stress-floor", "clear", 0.5],
        ["attesters-bonded", "not-clear", 1],
        ["liquidity-demand", "not-clear", 1],
        ["track-record", "unmeasured", null],
      ]);
      expect(launch.holding).to.equal("reserves-observed");
      const seen = new Set<string>();
      for (const gate of launch.gates) {
        expect(
          gate.after.every((id) => seen.has(id)),
          `${gate.id} after its dependencies`,
        ).to.equal(true);
        seen.add(gate.id);
      }
    });

    it("carries no date or time anywhere", async function () {
      const launch = await getLaunchPosition(context);
      expect(timeLike(launch, MARKET_NOW)).to.deep.equal([]);
    });

    it("moves holding along as gates clear; a track record cannot clear while the accuracy record is empty", async function () {
      const store = await openFresh();
      await seedMarket(store);
      for (const address of [
        "0x1000000000000000000000000000000000000001",
        "0x1000000000000000000000000000000000000002",
      ]) {
        await store.db
          .insertInto("pools")
          .values({
            chain_id: 8453,
            address,
            kind: "lending",
            symbol: "aX",
            protocol: "aave-v3",
            depth_usd: 1_000_000,
            depth_observed_at: MARKET_NOW - 60,
            exitable_usd: 1_000_000,
            exitable_observed_at: MARKET_NOW - 60,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
      }
      const launch = await getLaunchPosition(contextOf(store));
      expect(launch.gates[0]).to.include({ id: "reserves-observed", status: "clear", measured: 4 });
      expect(launch.gates.find((gate) => gate.id === "history")).to.include({ status: "not-clear", measured: 0 });
      expect(launch.holding).to.equal("history");
      const trackRecord = launch.gates.find((gate) => gate.id === "track-record")!;
      expect(trackRecord.detail).to.match(/accuracy record is empty/);

      await store.db
        .insertInto("accuracy_records")
        .values({
          attestation_id: "0x01",
          chain_id: 1,
          address: "0x0000000000000000000000000000000000000001",
          issued_at: MARKET_NOW - 30 * 86_400,
          issued_day: new Date((MARKET_NOW - 30 * 86_400) * 1000).toISOString().slice(0, 10),
          horizon_days: 7,
          confidence_hundredths: 90,
          floor_usd: 1,
          outcome: "void",
          lowest_depth_usd: null,
          lowest_depth_date: null,
          graded_at: MARKET_NOW,
        })
        .execute();
      const graded = await getLaunchPosition(contextOf(store));
      expect(graded.gates.find((gate) => gate.id === "track-record")).to.include({ status: "not-clear", measured: 1 });
    });

    it("is unmeasured, not a zero, where the store cannot tell (no reserve, no registry log)", async function () {
      const launch = await getLaunchPosition(contextOf(await openFresh()));
      const status = Object.fromEntries(launch.gates.map((gate) => [gate.id, [gate.status, gate.measured]]));
      expect(status).to.deep.equal({
        "reserves-observed": ["not-clear", 0],
        "exitable-liquidity": ["unmeasured", null],
        history: ["unmeasured", null],
        "reserves-attested": ["not-clear", 0],
        "stress-floor": ["unmeasured", null],
        "attesters-bonded": ["unmeasured", null],
        "liquidity-demand": ["not-clear", 0],
        "track-record": ["unmeasured", null],
      });
      expect(launch.holding).to.equal("reserves-observed");
    });
  });

  describe("getActivity", function () {
    it("pages newest first and follows the cursor to the oldest event", async function () {
      const first = await getActivity(context, { limit: 4 });
      expect(first.events.map((event) => event.id)).to.deep.equal([10, 9, 8, 7]);
      expect(first.events[1]).to.deep.equal({
        id: 9,
        kind: "pool.stale",
        at: MARKET_NOW - 120,
        poolId: IDS.c,
        summary: "event 5",
        data: { i: 5 },
      });
      const second = await getActivity(context, { limit: 4, cursor: first.next });
      const third = await getActivity(context, { limit: 4, cursor: second.next });
      expect([...second.events, ...third.events].map((event) => event.id)).to.deep.equal([6, 5, 4, 3, 2, 1]);
      expect(third.next).to.equal(null);
    });

    it("neither skips nor repeats an event while new ones arrive between pages", async function () {
      const store = await openFresh();
      const add = (n: number, tag: string) =>
        appendActivity(
          store.db,
          Array.from({ length: n }, (_, i) => ({
            kind: "ingest.pass",
            at: MARKET_NOW,
            summary: `${tag}${i}`,
            data: {},
          })),
        );
      await add(25, "before");
      const ctx = contextOf(store);
      const seen: number[] = [];
      let page = await getActivity(ctx, { limit: 7 });
      seen.push(...page.events.map((event) => event.id));
      while (page.next) {
        await add(3, "during");
        page = await getActivity(ctx, { limit: 7, cursor: page.next });
        seen.push(...page.events.map((event) => event.id));
      }
      expect(seen).to.deep.equal(Array.from({ length: 25 }, (_, i) => 25 - i));
    });

    it("filters by kind", async function () {
      const page = await getActivity(context, { limit: 50, kinds: ["pool.stale"] });
      expect(page.events.map((event) => event.kind)).to.deep.equal(["pool.stale", "pool.stale", "pool.stale"]);
    });

    it("refuses a cursor it did not hand out, and a limit outside 1–200", async function () {
      const good = (await getActivity(context, { limit: 1 })).next!;
      const forged = Buffer.from("a1.5 ", "utf8").toString("base64url");
      for (const cursor of ["", "!!", "bm9wZQ", forged, Buffer.from("a1.0").toString("base64url"), `${good}A`]) {
        const error = await rejection(getActivity(context, { cursor }));
        expect(error, cursor).to.be.instanceOf(InvalidCursorError);
      }
      for (const limit of [0, 201, 2.5]) {
        expect(await rejection(getActivity(context, { limit }))).to.be.instanceOf(InvalidParameterError);
      }
    });
  });

  describe("every market payload", function () {
    it("has no score, rank, rating or grade field", async function () {
      const payloads = [
        await getVolume(context, { days: 3 }),
        await getLiquidityMap(context),
        await comparePools(context, { pools: [IDS.a, IDS.b, IDS.e, IDS.f] }),
        await getRoadmap(context),
        await getLaunchPosition(context),
        await getActivity(context, { limit: 200 }),
      ];
      for (const payload of payloads) expect(scoreKeys(payload)).to.deep.equal([]);
    });
  });
}

describe("market readers (src/read: volume, liquidity map, compare, roadmap, launch, activity)", function () {
  forEachBackend(marketReaders);
});
