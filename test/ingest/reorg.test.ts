import { expect } from "chai";
import { createPublicClient, custom, type Address, type PublicClient } from "viem";
import { hardhatArtifact } from "../../src/chain/artifacts";
import { LOCAL_CHAIN_ACCOUNTS } from "../../src/chain/startLocalChain";
import { runIngestionPass, type RunIngestionPassParameters } from "../../src/ingest/runIngestionPass";
import { confirmedLogTarget } from "../../src/ingest/steps/swapLogs";
import { toUnits } from "../../src/model/pairMath";
import type { PoolConfig } from "../../src/model/poolConfig";
import { getLogCursors } from "../../src/storage/logCursors";
import { openStore, type Store } from "../../src/storage/openStore";
import { utcDay } from "../../src/storage/poolDaily";
import { listDailyVolume, listHourlyVolume } from "../../src/storage/poolVolume";
import { getPool } from "../../src/storage/pools";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { swapAt, type SentSwap } from "../helpers/ingest/swaps";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const HOUR = 3600;
/** A UTC midnight; each test works in its own stretch of chain time, 10 days after the previous one. */
const EPOCH = Date.UTC(2026, 10, 1) / 1000;
const quiet = () => undefined;

/** A client that forwards everything to `client` but refuses the `safe` block tag, as a node that does not serve it. */
function withoutSafeTag(client: PublicClient): PublicClient {
  return createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === "eth_getBlockByNumber" && (params ?? [])[0] === "safe")
          throw new Error("unknown block tag safe");
        return client.request({ method, params } as never);
      },
    }),
  }) as PublicClient;
}

describe("log cursors: confirmations and reorganisations", function () {
  let market: LocalMarket;
  let pools: PoolConfig[];
  let amm: string;
  let temp: TempStore;
  let store: Store;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY });
    pools = market.pools;
    amm = pools[0].address;
  });
  after(async () => market?.stop());
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "reorg-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** Mines a block at `time` and runs a pass pinned to it with no feeds. */
  async function passAt(
    time: number,
    options: { client?: PublicClient; logs?: RunIngestionPassParameters["logs"]; registry?: Address } = {},
  ) {
    await market.mineAt(time);
    return runIngestionPass({
      store,
      pools,
      chains: [{ chainId: 1, client: options.client ?? market.client }],
      feeds: {},
      now: () => time,
      issue: false,
      freshnessWindowS: 3600,
      ...(options.logs ? { logs: options.logs } : {}),
      ...(options.registry ? { registry: { chainId: 1, address: options.registry } } : {}),
      log: quiet,
    });
  }

  /** The USD value of sent USDC swaps (USDC is the $1 anchor). */
  const usdOf = (swaps: readonly SentSwap[]) => swaps.reduce((total, s) => total + toUnits(s.amountIn, 6), 0);

  async function days() {
    const rows = await listDailyVolume(store.db, { fromDay: "2000-01-01", toDay: "2100-01-01", chainId: 1 });
    return rows.map((r) => ({ day: r.day, swaps: r.swaps, volume: r.volume_usd }));
  }

  /** Swaps counted, the chain reorganised from before them, a pass: the rows hold exactly the new chain's swaps. */
  async function recountAfterReorg(d: number) {
    await passAt(d + HOUR);
    const snapshot = await market.driver.request("evm_snapshot", []);
    const orphaned = [
      await swapAt(market, { time: d + 2 * HOUR, token: "usdc", amount: 1000 }),
      await swapAt(market, { time: d + 2 * HOUR + 600, token: "usdc", amount: 2000 }),
    ];
    await passAt(d + 3 * HOUR);
    expect((await days()).at(-1)).to.deep.include({ day: utcDay(d), swaps: 2, volume: usdOf(orphaned) });
    const before = (await getLogCursors(store.db, { source: "swaps", chainId: 1 })).get(amm)!;

    // The chain reorganises from before those swaps: other swaps, and more blocks than the orphaned branch had.
    expect(await market.driver.request("evm_revert", [snapshot])).to.equal(true);
    const canonical = [
      await swapAt(market, { time: d + 2 * HOUR + 300, token: "usdc", amount: 40 }),
      await swapAt(market, { time: d + 2 * HOUR + 900, token: "usdc", amount: 5 }),
      await swapAt(market, { time: d + 3 * HOUR + 60, token: "usdc", amount: 300 }),
    ];
    for (let i = 1; i <= 3; i++) await market.mineAt(d + 3 * HOUR + 60 + i);
    const report = await passAt(d + 4 * HOUR);
    expect(report.sources["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });
    const head = await market.driver.latestBlock();
    expect(head.number).to.be.greaterThan(before.nextBlock);

    // Exactly the new chain's swaps: the orphaned ones are gone, the new ones counted once.
    expect(await days()).to.deep.equal([
      { day: utcDay(d - DAY), swaps: 0, volume: 0 },
      { day: utcDay(d), swaps: 3, volume: usdOf(canonical) },
    ]);
    const hours = await listHourlyVolume(store.db, { chainId: 1, address: amm });
    expect(hours.map((h) => [h.hour, h.swaps, h.volume_usd])).to.deep.equal([
      [d + 2 * HOUR, 2, 45],
      [d + 3 * HOUR, 1, 300],
    ]);
    expect((await getPool(store.db, 1, amm))!.volume_24h_usd).to.equal(345);
    const cursor = (await getLogCursors(store.db, { source: "swaps", chainId: 1 })).get(amm)!;
    expect(cursor.nextBlock).to.equal(head.number + 1n);
    const block = await market.client.getBlock({ blockNumber: head.number });
    expect(cursor.blockHash).to.equal(block.hash);

    // A later pass on the same chain finds its hash canonical and adds nothing.
    await passAt(d + 5 * HOUR);
    expect((await days()).at(-1)).to.deep.include({ swaps: 3, volume: 345 });
  }

  it("recounts the volume of orphaned blocks after a reorganisation behind the cursor, never double counting", async () => {
    await recountAfterReorg(EPOCH);
  });

  it("recounts after a reorganisation on PostgreSQL too", async () => {
    const sqlite = store;
    store = await openStore({ databaseUrl: await freshPostgresUrl() });
    try {
      await recountAfterReorg(EPOCH + 5 * DAY);
    } finally {
      await store.close();
      store = sqlite;
    }
  });

  it("stops log reads LOG_CONFIRMATIONS blocks behind the head where the node serves no safe block", async () => {
    const d = EPOCH + 10 * DAY;
    await passAt(d + HOUR);
    const client = withoutSafeTag(market.client);
    const logs = { confirmations: 4 };
    await swapAt(market, { time: d + 2 * HOUR, token: "usdc", amount: 70 });
    for (let i = 1; i <= 2; i++) await market.mineAt(d + 2 * HOUR + i);
    // The swap's block is 3 blocks behind the pass's own (4 with it): not confirmed yet, not counted.
    await passAt(d + 3 * HOUR, { client, logs });
    let head = await market.driver.latestBlock();
    let cursor = (await getLogCursors(store.db, { source: "swaps", chainId: 1 })).get(amm)!;
    expect(cursor.nextBlock).to.equal(head.number - 4n + 1n);
    expect((await days()).at(-1)).to.deep.include({ day: utcDay(d), swaps: 0 });

    for (let i = 1; i <= 3; i++) await market.mineAt(d + 3 * HOUR + i);
    await passAt(d + 4 * HOUR, { client, logs });
    head = await market.driver.latestBlock();
    cursor = (await getLogCursors(store.db, { source: "swaps", chainId: 1 })).get(amm)!;
    expect(cursor.nextBlock).to.equal(head.number - 4n + 1n);
    expect((await days()).at(-1)).to.deep.include({ day: utcDay(d), swaps: 1, volume: 70 });
    expect(cursor.blockHash).to.equal((await market.client.getBlock({ blockNumber: head.number - 4n })).hash);
  });

  it("stops the registry's log reads at the same confirmed block", async () => {
    const d = EPOCH + 20 * DAY;
    const admin = LOCAL_CHAIN_ACCOUNTS[0].address;
    const artifact = hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry");
    await market.mineAt(d);
    const registry = await market.driver.deploy({ from: admin, artifact, args: [admin, 10n ** 18n, 86_400n] });
    for (let i = 1; i <= 6; i++) await market.mineAt(d + 60 + i);
    await passAt(d + HOUR, { client: withoutSafeTag(market.client), logs: { confirmations: 4 }, registry });
    const head = await market.driver.latestBlock();
    const cursor = (await getLogCursors(store.db, { source: "registry", chainId: 1 })).get(registry.toLowerCase())!;
    expect(cursor.nextBlock).to.equal(head.number - 4n + 1n);
  });

  it("refuses a confirmation depth that is not a non-negative integer, naming LOG_CONFIRMATIONS", async () => {
    const head = await market.driver.latestBlock();
    const pinned = { block: head.number, time: head.timestamp };
    for (const bad of [-1, 1.5, Number.NaN]) {
      const error = await confirmedLogTarget(market.client, pinned, bad).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(RangeError);
      expect((error as Error).message).to.match(/^LOG_CONFIRMATIONS must be a non-negative integer/);
    }
    expect((await confirmedLogTarget(market.client, pinned, 0)).block).to.equal(head.number);
  });
});
