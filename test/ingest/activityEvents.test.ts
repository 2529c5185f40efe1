import { expect } from "chai";
import type { Address, PublicClient } from "viem";
import { hardhatArtifact } from "../../src/chain/artifacts";
import { LOCAL_CHAIN_ACCOUNTS } from "../../src/chain/startLocalChain";
import { HEARTBEAT_STALE_AFTER_S } from "../../src/ingest/passRun";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../src/model/poolConfig";
import { listActivity } from "../../src/storage/activity";
import { upsertCampaigns, type ObservedCampaign } from "../../src/storage/campaigns";
import { INTERRUPTED_ERROR, listIngestRuns, startIngestRun } from "../../src/storage/ingestRuns";
import { getLogCursors } from "../../src/storage/logCursors";
import { openStore, type Store } from "../../src/storage/openStore";
import { getPool } from "../../src/storage/pools";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { failingClient } from "../helpers/ingest/swaps";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const WINDOW = 3600;
const EPOCH = Date.UTC(2026, 11, 1) / 1000;
const [ADMIN, , ATTESTER] = LOCAL_CHAIN_ACCOUNTS.map((a) => a.address);
const BOND = 10n ** 18n;

describe("activity events written by ingestion", function () {
  let market: LocalMarket;
  let pools: PoolConfig[];
  let registry: Address;
  let temp: TempStore;
  let store: Store;
  let clock = EPOCH;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY, lending: true });
    pools = [{ ...market.pools[0], merklId: "opp-1" }, market.pools[1]];
    registry = await market.driver.deploy({
      from: ADMIN,
      artifact: hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry"),
      args: [ADMIN, BOND, 7n * 86_400n],
    });
    await registryWrite(ATTESTER, "register", [ATTESTER], BOND);
    await registryWrite(ATTESTER, "addBond", [ATTESTER], BOND / 2n);
  });
  after(async () => market?.stop());
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "events-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  async function registryWrite(from: Address, functionName: string, args: unknown[], value?: bigint) {
    const abi = hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry").abi;
    await market.driver.write({ from, address: registry, abi, functionName, args, ...(value ? { value } : {}) });
  }

  async function passAt(
    time: number,
    options: { client?: PublicClient; extraPools?: PoolConfig[]; registry?: boolean; instanceId?: string } = {},
  ) {
    if (time > clock) await market.mineAt(time);
    clock = Math.max(clock, time);
    return runIngestionPass({
      store,
      pools: [...pools, ...(options.extraPools ?? [])],
      chains: [{ chainId: 1, client: options.client ?? market.client }],
      feeds: {},
      ...(options.registry ? { registry: { chainId: 1, address: registry } } : {}),
      now: () => time,
      issue: false,
      freshnessWindowS: WINDOW,
      log: () => undefined,
      ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    });
  }

  async function events(kind?: string) {
    const rows = await listActivity(store.db, { limit: 1000, beforeId: null, ...(kind ? { kinds: [kind] } : {}) });
    return rows.reverse().map((row) => ({ ...row, data: JSON.parse(row.data_json) as Record<string, unknown> }));
  }

  it("writes one ingest.pass per finished pass with its status and sources, and one for a pass closed as interrupted", async () => {
    const t = EPOCH + 100;
    await startIngestRun(store.db, { id: "dead-run", startedAt: t - HEARTBEAT_STALE_AFTER_S, instanceId: "gone" });
    await startIngestRun(store.db, { id: "live-run", startedAt: t - 10, instanceId: "other" });
    const report = await passAt(t, { instanceId: "me" });
    const passes = await events("ingest.pass");
    expect(passes.map((e) => [e.data.runId, e.data.instance, e.data.status])).to.deep.equal([
      ["dead-run", "gone", "failed"],
      [report.runId, "me", "ok"],
    ]);
    expect(passes[0].data.sources).to.deep.equal({ pass: { ok: false, error: INTERRUPTED_ERROR } });
    expect(passes[1]).to.deep.include({ at: report.finishedAt, chain_id: null, address: null });
    expect(passes[1].data).to.deep.include({
      startedAt: t,
      finishedAt: t,
      sources: report.sources,
      observedPools: 2,
      issued: 0,
    });
    expect(passes[1].summary).to.match(/^Ingestion pass ok, 2 pool\(s\) observed on chain/);
    const runs = await listIngestRuns(store.db);
    expect(runs.filter((r) => r.status !== "running")).to.have.length(passes.length);
  });

  it("writes pool.fresh and pool.stale once per change of the depth's freshness; a pool never observed stays stale silently", async () => {
    const never: PoolConfig = { ...pools[0], chainId: 8453, merklId: undefined };
    const base = EPOCH + 10 * DAY;
    const dead = failingClient(market.client, ["eth_call", "eth_getBlockByNumber", "eth_getLogs", "eth_blockNumber"]);
    await passAt(base, { extraPools: [never] });
    await passAt(base + 60, { extraPools: [never] });
    const last = base + 60; // the depth's last observation before the RPC goes away
    await passAt(last + WINDOW, { client: dead, extraPools: [never] }); // exactly a window old: still fresh
    await passAt(last + WINDOW + 1, { client: dead, extraPools: [never] });
    await passAt(last + WINDOW + 60, { client: dead, extraPools: [never] });
    await passAt(last + WINDOW + 120, { extraPools: [never] });
    const seen = (await events()).filter((e) => e.kind.startsWith("pool."));
    const amm = `eip155:1:${pools[0].address}`;
    const lending = `eip155:1:${pools[1].address}`;
    expect(seen.map((e) => [e.kind, e.data.poolId, e.at])).to.deep.equal([
      ["pool.fresh", amm, base],
      ["pool.fresh", lending, base],
      ["pool.stale", amm, last + WINDOW + 1],
      ["pool.stale", lending, last + WINDOW + 1],
      ["pool.fresh", amm, last + WINDOW + 120],
      ["pool.fresh", lending, last + WINDOW + 120],
    ]);
    expect(seen[2].data).to.deep.equal({ poolId: amm, field: "depthUsd", observedAt: last, freshnessWindowS: WINDOW });
    expect(seen[2]).to.include({ chain_id: 1, address: pools[0].address });
    expect((await getPool(store.db, 8453, never.address))!.freshness_state).to.equal("stale");
    expect((await getPool(store.db, 1, pools[0].address))!.freshness_state).to.equal("fresh");
  });

  it("announces each campaign's start and end once, when due, with the tracked pool it names", async () => {
    const base = EPOCH + 20 * DAY;
    const campaign = (id: string, opportunity: string, start: number, end: number): ObservedCampaign => ({
      id,
      distributionChainId: 1,
      chainId: 1,
      opportunityId: opportunity,
      identifier: "0x00000000000000000000000000000000000000ff",
      name: `Campaign ${id}`,
      type: "UNISWAP_V2",
      status: "LIVE",
      rewardToken: "0x00000000000000000000000000000000000000ee",
      amount: "1000",
      aprPercent: 12.5,
      startsAt: start,
      endsAt: end,
      observedAt: base,
    });
    await upsertCampaigns(store.db, [
      campaign("c1", "opp-1", base - 10, base + 1000),
      campaign("c2", "other", base + 500, base + 2000),
      // c1's id again, paid on another chain: another campaign, announced on its own.
      { ...campaign("c1", "opp-1", base - 10, base + 1000), distributionChainId: 8453 },
    ]);
    await passAt(base);
    await passAt(base);
    await passAt(base + 600);
    await passAt(base + 1500);
    await passAt(base + 1500);
    await passAt(base + 5000);
    const seen = (await events()).filter((e) => e.kind.startsWith("campaign."));
    expect(seen.map((e) => [e.kind, e.data.campaignId, e.data.distributionChainId, e.at])).to.deep.equal([
      ["campaign.started", "c1", 1, base],
      ["campaign.started", "c1", 8453, base],
      ["campaign.started", "c2", 1, base + 600],
      ["campaign.ended", "c1", 1, base + 1500],
      ["campaign.ended", "c1", 8453, base + 1500],
      ["campaign.ended", "c2", 1, base + 5000],
    ]);
    expect(seen[0]).to.include({ chain_id: 1, address: pools[0].address });
    expect(seen[0].data).to.deep.include({
      poolId: `eip155:1:${pools[0].address}`,
      opportunityId: "opp-1",
      startTs: base - 10,
      endTs: base + 1000,
      aprPercent: 12.5,
    });
    expect(seen[1]).to.include({ chain_id: 1, address: pools[0].address });
    expect(seen[2]).to.include({ chain_id: null, address: null });
    expect(seen[2].data.poolId).to.equal(null);
  });

  it("writes the registry's events once each, in chain order at their block's time, with the cursor", async () => {
    const base = EPOCH + 30 * DAY;
    await passAt(base, { registry: true });
    await passAt(base + 60, { registry: true });
    const kinds = (await events()).filter((e) => e.kind.startsWith("registry.")).map((e) => e.kind);
    expect(kinds).to.deep.equal(["registry.OwnershipTransferred", "registry.Registered", "registry.BondAdded"]);
    const registered = (await events("registry.Registered"))[0];
    expect(registered.data).to.deep.include({
      attester: ATTESTER.toLowerCase(),
      beneficiary: ATTESTER.toLowerCase(),
      bond: BOND.toString(),
      chainId: 1,
      registry: registry.toLowerCase(),
      event: "Registered",
    });
    expect(registered.at).to.be.lessThan(base);
    expect(registered).to.include({ chain_id: null, address: null });

    await market.driver.request("evm_setNextBlockTimestamp", [`0x${(base + 120).toString(16)}`]);
    await registryWrite(ATTESTER, "requestUnbond", []);
    await passAt(base + 180, { registry: true });
    await passAt(base + 240, { registry: true });
    const unbond = await events("registry.UnbondRequested");
    expect(unbond).to.have.length(1);
    expect(unbond[0].at).to.equal(base + 120);
    expect(unbond[0].data.attester).to.equal(ATTESTER.toLowerCase());
    const cursor = (await getLogCursors(store.db, { source: "registry", chainId: 1 })).get(registry.toLowerCase())!;
    expect(cursor.nextBlock).to.equal((await market.driver.latestBlock()).number + 1n);
    expect((await events()).filter((e) => e.kind.startsWith("registry."))).to.have.length(4);
  });

  it("writes each event once on PostgreSQL too, a pass run twice adding only its own ingest.pass", async () => {
    const url = await freshPostgresUrl();
    const local = store;
    try {
      store = await openStore({ databaseUrl: url });
      const base = EPOCH + 40 * DAY;
      await upsertCampaigns(store.db, [
        {
          id: "pg-1",
          distributionChainId: 1,
          chainId: 1,
          opportunityId: "opp-1",
          identifier: "0x00000000000000000000000000000000000000ff",
          name: null,
          type: null,
          status: "LIVE",
          rewardToken: null,
          amount: null,
          aprPercent: null,
          startsAt: base - 100,
          endsAt: base - 50,
          observedAt: base,
        },
      ]);
      await passAt(base, { registry: true });
      const first = (await events()).map((e) => e.kind);
      await passAt(base, { registry: true });
      const second = (await events()).map((e) => e.kind);
      expect(first.filter((k) => k !== "ingest.pass")).to.include.members([
        "pool.fresh",
        "campaign.started",
        "campaign.ended",
        "registry.Registered",
      ]);
      expect(second).to.deep.equal([...first, "ingest.pass"]);
    } finally {
      await store.close();
      store = local;
    }
  });
});
