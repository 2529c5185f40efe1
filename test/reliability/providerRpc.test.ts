import { expect } from "chai";
import { createPublicClient, http, toHex, type Address, type PublicClient } from "viem";
import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { hardhatArtifact } from "../../src/chain/artifacts";
import { LOCAL_CHAIN_ACCOUNTS } from "../../src/chain/startLocalChain";
import { runIngestionPass, type RunIngestionPassParameters } from "../../src/ingest/runIngestionPass";
import { swapEvent } from "../../src/ingest/steps/swapLogs";
import { toUnits } from "../../src/model/pairMath";
import { listActivityByKindPrefix } from "../../src/storage/activity";
import { getLogCursors } from "../../src/storage/logCursors";
import type { Store } from "../../src/storage/openStore";
import { listDailyVolume, listHourlyVolume } from "../../src/storage/poolVolume";
import { getPool } from "../../src/storage/pools";
import {
  startFaultyRpcProxy,
  type FaultyRpcProxy,
  type RangeErrorProvider,
  type RpcFault,
} from "../helpers/ingest/faultyRpcProxy";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { swapAt, type SentSwap } from "../helpers/ingest/swaps";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const HOUR = 3600;
/** A UTC midnight; each test works in its own stretch of chain time, 10 days after the previous one. */
const EPOCH = Date.UTC(2026, 10, 1) / 1000;
const admin = LOCAL_CHAIN_ACCOUNTS[0].address;
const [alice, bob, carol] = [1, 2, 4].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
const usdOf = (swaps: readonly SentSwap[]) => swaps.reduce((total, s) => total + toUnits(s.amountIn, 6), 0);

/**
 * Chain 1 is read through a fault-injecting JSON-RPC proxy in one store and directly in a control store, pass for
 * pass at the same blocks; chain 10 is read directly in both. Every case ends as the control, or with the source
 * failing and naming the cause while nothing stored moves; chain 10 is never touched.
 */
describe("JSON-RPC providers: range-limited and lagging nodes", function () {
  let market: LocalMarket;
  let other: LocalMarket;
  let proxy: FaultyRpcProxy;
  let proxied: PublicClient;
  let temps: TempStore[];
  let control: Store;
  let faulty: Store;
  let registry: Address;
  let lines: string[];
  let stretch = 0;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY });
    other = await startLocalMarket({ chainId: 10, genesisTime: EPOCH - 3 * DAY });
    proxy = await startFaultyRpcProxy(market.chain.rpcUrl);
    proxied = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }) as PublicClient;
  });
  after(async () => {
    await proxy?.close();
    await market?.stop();
    await other?.stop();
  });
  beforeEach(async () => {
    temps = [
      await openTempStore({ prefix: "provider-rpc-", fileName: "control.sqlite" }),
      await openTempStore({ prefix: "provider-rpc-", fileName: "faulty.sqlite" }),
    ];
    [control, faulty] = temps.map((temp) => temp.store);
    proxy.setFault(null);
    lines = [];
  });
  afterEach(async () => {
    for (const temp of temps) await temp.cleanup();
  });

  /** The start of this test's stretch of chain time, with a fresh registry deployed at it. */
  async function start(): Promise<number> {
    const d = EPOCH + 10 * DAY * ++stretch;
    await market.mineAt(d);
    await other.mineAt(d);
    const artifact = hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry");
    registry = await market.driver.deploy({ from: admin, artifact, args: [admin, 10n ** 18n, 86_400n] });
    return d;
  }

  async function register(time: number, who: Address) {
    await market.driver.request("evm_setNextBlockTimestamp", [toHex(time)]);
    const args = { from: who, address: registry, abi: attestationRegistryAbi, functionName: "register" };
    return market.driver.write({ ...args, args: [who], value: 10n ** 18n });
  }

  function pass(store: Store, client: PublicClient, time: number, logs?: RunIngestionPassParameters["logs"]) {
    return runIngestionPass({
      store,
      pools: [...market.pools, ...other.pools],
      chains: [
        { chainId: 1, client },
        { chainId: 10, client: other.client },
      ],
      feeds: {},
      now: () => time,
      issue: false,
      freshnessWindowS: 3600,
      registry: { chainId: 1, address: registry },
      ...(logs ? { logs } : {}),
      log: (line) => lines.push(`${store === faulty ? "faulty" : "control"} ${line}`),
    });
  }

  /** A block at `time` on both chains, then the control's pass and the faulty one's, at the same blocks. */
  async function both(time: number, logs?: RunIngestionPassParameters["logs"]) {
    await market.mineAt(time);
    await other.mineAt(time);
    const c = await pass(control, market.client, time, logs);
    const f = await pass(faulty, proxied, time, logs);
    return { c: c.sources, f: f.sources };
  }

  /** Everything a case may touch: chain 1's volume, depth, cursors and registry events, and chain 10's. */
  async function stored(store: Store) {
    const amm = market.pools[0].address;
    const pool = async (chainId: number, address: string) => {
      const row = (await getPool(store.db, chainId, address))!;
      return {
        volume24h: row.volume_24h_usd,
        volumeAt: row.volume_observed_at,
        depth: row.depth_usd,
        depthBlock: row.depth_block,
      };
    };
    const days = async (chainId: number) =>
      (await listDailyVolume(store.db, { fromDay: "2000-01-01", toDay: "2100-01-01", chainId })).map((r) => ({
        day: r.day,
        swaps: r.swaps,
        volume: r.volume_usd,
      }));
    const cursors = async (source: string, chainId: number) =>
      [...(await getLogCursors(store.db, { source, chainId })).values()].map((c) => [
        c.address,
        c.nextBlock,
        c.blockHash,
      ]);
    return {
      chain1: {
        pool: await pool(1, amm),
        days: await days(1),
        hours: (await listHourlyVolume(store.db, { chainId: 1, address: amm })).map((h) => [
          h.hour,
          h.swaps,
          h.volume_usd,
        ]),
        swapCursors: await cursors("swaps", 1),
        registryCursors: await cursors("registry", 1),
        registryEvents: (await listActivityByKindPrefix(store.db, "registry.")).map((row) => [
          row.kind,
          row.data.transactionHash as string,
        ]),
      },
      chain10: {
        pool: await pool(10, other.pools[0].address),
        days: await days(10),
        swapCursors: await cursors("swaps", 10),
      },
    };
  }

  /** Swaps on both chains and a registration, in this test's stretch. */
  async function activity(d: number, at: number, amounts: number[], who: Address) {
    const sent: SentSwap[] = [];
    for (const [i, amount] of amounts.entries())
      sent.push(await swapAt(market, { time: d + at + i * 300, token: "usdc", amount }));
    await swapAt(other, { time: d + at + 60, token: "usdc", amount: 11 });
    await register(d + at + amounts.length * 300, who);
    return sent;
  }

  describe("eth_getLogs range and size errors are split", function () {
    const providers: [RangeErrorProvider, boolean][] = [
      ["infura", true],
      ["alchemy", true],
      ["alchemyFree", true],
      ["quicknode", true],
      ["geth", false],
      ["ankr", false],
      ["chainstack", false],
    ];
    for (const [provider, suggests] of providers) {
      it(`${provider}: ${suggests ? "the suggested range" : "halved"}, the stored volume, cursors and events are the control's`, async () => {
        const d = await start();
        proxy.setFault({ kind: "range", provider, maxSpan: 2 });
        const sent = await activity(d, 2 * HOUR, [1000, 250, 40], alice);
        proxy.calls.length = 0;
        const { c, f } = await both(d + 4 * HOUR);
        expect(c["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });
        expect(f["swaps:1"]).to.deep.equal(c["swaps:1"]);
        expect(f.registry).to.deep.equal(c.registry);
        const controlState = await stored(control);
        expect(controlState.chain1.pool.volume24h).to.equal(usdOf(sent));
        expect(controlState.chain1.registryEvents.map(([kind]) => kind)).to.include("registry.Registered");
        expect(await stored(faulty)).to.deep.equal(controlState);

        const getLogs = proxy.calls.filter((call) => call.method === "eth_getLogs");
        const refused = getLogs.filter((call) => call.error);
        expect(refused.length).to.be.greaterThan(0);
        expect(getLogs.filter((call) => !call.error).every((call) => call.span! <= 2)).to.equal(true);
        // Suggested: one refusal per log source (swaps, registry), then the suggested span for the rest of the pass.
        if (suggests) expect(refused).to.have.length(2);
        else expect(refused.length).to.be.greaterThan(2);
        expect(lines.some((line) => /faulty .*eth_getLogs range\(s\) narrowed/.test(line))).to.equal(true);

        // The next pass reads on the same way.
        await activity(d, 5 * HOUR, [70], bob);
        await both(d + 6 * HOUR);
        expect(await stored(faulty)).to.deep.equal(await stored(control));
      });
    }

    it("a range refused down to one block fails the source with the provider's code and message; nothing moves", async () => {
      const d = await start();
      await both(d + HOUR);
      const before = await stored(faulty);
      await activity(d, 2 * HOUR, [500, 20], alice);
      proxy.setFault({ kind: "range", provider: "geth", maxSpan: 0 });
      const { c, f } = await both(d + 3 * HOUR);
      const error = "eth_getLogs failed: -32000 query returned more than 10000 results";
      expect(f["swaps:1"]).to.deep.equal({ ok: false, rows: 0, error });
      expect(f.registry).to.deep.equal({ ok: false, rows: 0, error });
      expect(c["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });
      const now = await stored(faulty);
      expect(now.chain1.swapCursors).to.deep.equal(before.chain1.swapCursors);
      expect(now.chain1.registryCursors).to.deep.equal(before.chain1.registryCursors);
      expect(now.chain1.days).to.deep.equal(before.chain1.days);
      expect(now.chain10).to.deep.equal((await stored(control)).chain10);
      expect(f["swaps:10"]).to.deep.equal({ ok: true, rows: 1 });

      proxy.setFault(null);
      await both(d + 4 * HOUR);
      expect(await stored(faulty)).to.deep.equal(await stored(control));
    });

    it("splitting stays within the pass's request budget; later passes catch up to the control", async () => {
      const d = await start();
      const logs = { maxRangesPerPass: 4 };
      proxy.setFault({ kind: "range", provider: "ankr", maxSpan: 1 });
      await activity(d, 2 * HOUR, [300, 30, 3], carol);
      let t = d + 3 * HOUR;
      const perPass: { served: number; refused: number }[] = [];
      for (let i = 0; i < 40; i++, t += 60) {
        const mark = proxy.calls.length;
        const { f } = await both(t, logs);
        const getLogs = proxy.calls.slice(mark).filter((call) => call.method === "eth_getLogs");
        perPass.push({
          served: getLogs.filter((c) => !c.error).length,
          refused: getLogs.filter((c) => c.error).length,
        });
        if (f["swaps:1"].rows === 1 && f.registry.ok) break;
      }
      // Each log source reads at most 4 ranges a pass, and its refusals are bounded by halving 2,000 blocks down to
      // one (11): at most 2 × (4 + 11) requests a pass.
      for (const { served, refused } of perPass) {
        expect(served).to.be.within(1, 8);
        expect(served + refused).to.be.at.most(30);
      }
      expect(perPass.length).to.be.greaterThan(2);
      expect(await stored(faulty)).to.deep.equal(await stored(control));
    });
  });

  it("a node whose logs lag (a load balancer) makes the step fail naming the block; a later pass repairs it", async () => {
    const d = await start();
    await both(d + HOUR);
    const early = await activity(d, 2 * HOUR, [120_000, 80_000], alice);
    const lag = (await market.driver.latestBlock()).number;
    const late = await activity(d, 3 * HOUR, [300_000, 240_000, 200_000], bob);
    const before = await stored(faulty);

    proxy.setFault({ kind: "lagLogs", head: lag });
    // The fault is real: a single eth_getLogs through the proxy misses the late swaps, without an error.
    const range = { address: market.pair, event: swapEvent, fromBlock: 0n, toBlock: "latest" } as const;
    expect(await proxied.getLogs(range)).to.have.length((await market.client.getLogs(range)).length - late.length);

    const { c, f } = await both(d + 4 * HOUR);
    expect(c["swaps:1"]).to.deep.equal({ ok: true, rows: 1 });
    expect(f["swaps:1"].ok).to.equal(false);
    expect(f["swaps:1"].error).to.match(/^RPC node is behind: it does not know block \d+$/);
    expect(BigInt(/block (\d+)/.exec(f["swaps:1"].error!)![1])).to.be.greaterThan(lag);
    expect(f.registry.error).to.match(/^RPC node is behind: it does not know block \d+$/);
    const controlState = await stored(control);
    const faultyState = await stored(faulty);
    // Control: 5 swaps in the 24 h; the faulty store keeps what it had (no gap, no partial day), cursors unmoved.
    expect(controlState.chain1.pool.volume24h).to.equal(usdOf([...early, ...late]));
    expect(faultyState.chain1.pool.volume24h).to.equal(before.chain1.pool.volume24h);
    const { pool, ...logsState } = faultyState.chain1;
    const { pool: poolBefore, ...logsBefore } = before.chain1;
    expect(logsState).to.deep.equal(logsBefore);
    expect(pool.volumeAt).to.equal(poolBefore.volumeAt);
    // The node knows the state at the head: the depth is read there, as in the control.
    expect(f["chain:1"]).to.deep.equal({ ok: true, rows: 1 });
    expect([pool.depth, pool.depthBlock]).to.deep.equal([
      controlState.chain1.pool.depth,
      controlState.chain1.pool.depthBlock,
    ]);
    expect(faultyState.chain10).to.deep.equal(controlState.chain10);
    expect(f["swaps:10"]).to.deep.equal({ ok: true, rows: 1 });

    // The node catches up: the next pass reads every swap, as the control did.
    proxy.setFault(null);
    await both(d + 5 * HOUR);
    const repaired = await stored(faulty);
    expect(repaired).to.deep.equal(await stored(control));
    expect(repaired.chain1.pool.volume24h).to.equal(usdOf([...early, ...late]));
    expect(repaired.chain1.days.at(-1)).to.deep.include({ swaps: 5 });
  });

  it("a node behind on everything: its older depth is skipped, its head below a cursor is no reorganisation", async () => {
    const d = await start();
    await activity(d, HOUR, [5000], alice);
    await both(d + 2 * HOUR);
    const lag = (await market.driver.latestBlock()).number;
    await market.removeLiquidity(0.3);
    await activity(d, 3 * HOUR, [700, 900], bob);
    for (let i = 1; i <= 14; i++) await market.mineAt(d + 4 * HOUR + i);
    await both(d + 5 * HOUR);
    const before = await stored(faulty);
    expect(BigInt(before.chain1.pool.depthBlock!)).to.be.greaterThan(lag);
    expect(before.chain1.swapCursors[0][1] as bigint).to.be.greaterThan(lag + 1n);

    proxy.setFault({ kind: "lagAll", head: lag });
    const { c, f } = await both(d + 6 * HOUR);
    expect(c["chain:1"]).to.deep.equal({ ok: true, rows: 1 });
    expect(f["chain:1"]).to.deep.include({ ok: false, rows: 0, dropped: 1 });
    expect(f["chain:1"].error).to.equal(
      `RPC node is behind: read at block ${lag}, older than the stored depth of 1 pool(s): ` +
        `${market.pools[0].address} (stored ${before.chain1.pool.depthBlock}); not stored`,
    );
    const cursorBlock = (before.chain1.swapCursors[0][1] as bigint) - 1n;
    expect(f["swaps:1"]).to.deep.equal({
      ok: false,
      rows: 0,
      error: `RPC node is behind: it does not know block ${cursorBlock}`,
    });
    expect(f.registry.ok).to.equal(false);
    expect(f.registry.error).to.match(/^RPC node is behind: it does not know block \d+$/);
    const faultyState = await stored(faulty);
    // Depth, its block, the volume rows and the cursors are as before: no move back, no recount.
    expect(faultyState.chain1).to.deep.equal(before.chain1);
    expect(lines.filter((line) => /^faulty .*reorganisation/.test(line))).to.deep.equal([]);
    expect(faultyState.chain10).to.deep.equal((await stored(control)).chain10);

    proxy.setFault(null);
    await both(d + 7 * HOUR);
    expect(await stored(faulty)).to.deep.equal(await stored(control));
  });

  it("a transient HTTP 503 on a log batch is retried as a single request would be: the pass matches the control", async () => {
    const d = await start();
    await both(d + HOUR);
    await activity(d, 2 * HOUR, [700, 70], alice);
    proxy.setFault({ kind: "http503", times: 2 });
    const mark = proxy.calls.length;
    const { f } = await both(d + 3 * HOUR);
    const refused = proxy.calls.slice(mark).filter((call) => call.method === "eth_getLogs" && call.error?.code === 503);
    expect(refused, "both 503s were met").to.have.length(2);
    expect(f["swaps:1"].ok, f["swaps:1"].error).to.equal(true);
    expect(f.registry.ok, f.registry.error).to.equal(true);
    expect(await stored(faulty)).to.deep.equal(await stored(control));
  });

  describe("rate limits and other errors are not split", function () {
    const cases: [string, RpcFault, string][] = [
      [
        "HTTP 429",
        { kind: "http429" },
        "eth_getLogs failed: HTTP 429 Your app has exceeded its compute units per second capacity.",
      ],
      [
        "Infura -32005 daily limit",
        { kind: "logsError", error: { code: -32005, message: "daily request count exceeded, request rate limited" } },
        "eth_getLogs failed: -32005 daily request count exceeded, request rate limited",
      ],
      [
        "-32005 limit exceeded",
        { kind: "logsError", error: { code: -32005, message: "limit exceeded" } },
        "eth_getLogs failed: -32005 limit exceeded",
      ],
      [
        "-32046 Cannot fulfill request",
        { kind: "logsError", error: { code: -32046, message: "Cannot fulfill request" } },
        "eth_getLogs failed: -32046 Cannot fulfill request",
      ],
    ];
    for (const [name, fault, error] of cases) {
      it(`${name}: one request per log source, the provider's message, nothing moves, the next pass repairs`, async () => {
        const d = await start();
        await both(d + HOUR);
        const before = await stored(faulty);
        await activity(d, 2 * HOUR, [900, 90], alice);
        proxy.setFault(fault);
        const mark = proxy.calls.length;
        const { f } = await both(d + 3 * HOUR);
        expect(proxy.calls.slice(mark).filter((call) => call.method === "eth_getLogs")).to.have.length(2);
        expect(f["swaps:1"].ok).to.equal(false);
        expect(f["swaps:1"].error!.startsWith(error), f["swaps:1"].error).to.equal(true);
        expect(f.registry.error!.startsWith(error)).to.equal(true);
        const faultyState = await stored(faulty);
        expect(faultyState.chain1.swapCursors).to.deep.equal(before.chain1.swapCursors);
        expect(faultyState.chain1.days).to.deep.equal(before.chain1.days);
        expect(faultyState.chain10).to.deep.equal((await stored(control)).chain10);

        proxy.setFault(null);
        await both(d + 4 * HOUR);
        expect(await stored(faulty)).to.deep.equal(await stored(control));
      });
    }
  });
});
