/**
 * RPC requests of one `readPools` pass for 10, 100 and 1,000 Uniswap V2 pairs on one local chain, then of the
 * pass's `Swap` log reading (`readSwapLogsStep`) for the same pairs: the first read (lookback) and a steady-state one.
 *
 * Deploys 46 tokens (USDC, 6 decimals, plus 45 others) and 1,000 distinct pairs among them, each with
 * liquidity, then reads the first 10, 100 and 1,000 pairs at three multicall batch sizes. Then 200 swaps on 100
 * pairs over 12 hours of chain time, and the swap logs of 10, 100 and 1,000 pairs. Then times the demo's start
 * (`startDemoChains`, default days) with one ingestion pass per simulated day (all chains, no feeds, in-memory
 * SQLite). Run with `npm run bench:ingest`. Prints Markdown tables; timings are indicative (shared 2-core machine).
 */
import {
  createPublicClient,
  custom,
  http,
  keccak256,
  numberToHex,
  stringToHex,
  type Address,
  type PublicClient,
} from "viem";
import { createChainDriver } from "../src/chain/chainDriver";
import { deployMulticall3 } from "../src/chain/multicall3";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain } from "../src/chain/startLocalChain";
import {
  addLiquidity,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  readPair,
  swapExactIn,
  type DemoToken,
} from "../src/chain/uniswapV2";
import { readPools } from "../src/ingest/onchain/readPools";
import { runIngestionPass } from "../src/ingest/runIngestionPass";
import { DEFAULT_LOG_READ_OPTIONS, readSwapLogsStep, SWAPS_SOURCE } from "../src/ingest/steps/swapLogs";
import { DEMO_DEFAULT_DAYS } from "../src/demo/demoConfig";
import { demoPoolConfigs } from "../src/demo/feedServer";
import { startDemoChains } from "../src/demo/startDemoChains";
import { advanceLogCursor } from "../src/storage/logCursors";
import { openStore } from "../src/storage/openStore";

const SIZES = [10, 100, 1000];
const BATCH_SIZES = [1024, 4096, 8192];

async function main(): Promise<void> {
  const [admin, lp] = LOCAL_CHAIN_ACCOUNTS.map((a) => a.address);
  const chain = await startLocalChain({ chainId: 1, genesisTime: Math.floor(Date.now() / 1000) - 86_400 });
  try {
    const driver = createChainDriver({ chainId: 1, provider: chain.provider });
    const setupStart = Date.now();
    await deployMulticall3(driver, admin);
    const tokens: DemoToken[] = [await deployToken(driver, admin, { name: "USD Coin", symbol: "USDC", decimals: 6 })];
    for (let i = 1; i < 46; i++)
      tokens.push(await deployToken(driver, admin, { name: `Token ${i}`, symbol: `T${i}`, decimals: 18 }));
    const factory = await deployUniswapV2Factory(driver, admin);
    const pairs: Address[] = [];
    // USDC pairs first, so every token gets a price.
    outer: for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j < tokens.length; j++) {
        const pair = await createPair(driver, admin, factory, tokens[i].address, tokens[j].address);
        const { token0, token1 } = await readPair(driver, pair);
        const amount = (t: Address) => (t === tokens[0].address ? 1_000_000n * 10n ** 6n : 1_000_000n * 10n ** 18n);
        await addLiquidity(driver, {
          from: lp,
          pair,
          token0,
          amount0: amount(token0),
          token1,
          amount1: amount(token1),
        });
        pairs.push(pair);
        if (pairs.length === Math.max(...SIZES)) break outer;
      }
    }
    console.log(
      `setup: ${tokens.length} tokens, ${pairs.length} pairs with liquidity in ${Date.now() - setupStart} ms (${driver.transactions} transactions)`,
    );

    const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
    console.log("");
    console.log("| pools | calls | batchSize (bytes) | RPC requests | priced | ms |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    for (const size of SIZES) {
      for (const batchSize of BATCH_SIZES) {
        const pools = pairs.slice(0, size).map((address) => ({ chainId: 1, address, kind: "amm" as const }));
        const started = Date.now();
        const result = await readPools({ client, pools, batchSize });
        const ms = Date.now() - started;
        if (result.failures.length > 0) throw new Error(`failures: ${JSON.stringify(result.failures.slice(0, 3))}`);
        const tokensRead = new Set(result.observations.flatMap((o) => [o.state.token0, o.state.token1])).size;
        const calls = size * 3 + tokensRead * 2;
        const priced = result.observations.filter((o) => o.depthUsd !== null).length;
        console.log(`| ${size} | ${calls} | ${batchSize} | ${result.rpcRequests} | ${priced} | ${ms} |`);
      }
    }
    console.log("");
    console.log("RPC requests = 1 block read + one eth_call per multicall batch (pair reads, then token metadata).");
    await benchSwapLogs(driver, client, pairs, lp);
  } finally {
    await chain.stop();
  }

  // The demo's own start: 3 chains, DEMO_DEFAULT_DAYS of history, one ingestion pass (every chain) per day.
  console.log("");
  let passes = 0;
  let readMs = 0;
  const counts = new Map<string, number>();
  const store = await openStore({ file: ":memory:" });
  const started = Date.now();
  const demo = await startDemoChains({
    days: DEMO_DEFAULT_DAYS,
    attesterPrivateKey: keccak256(stringToHex("bench attester")),
    log: () => {},
    onDay: async (day) => {
      const t = Date.now();
      const chains = day.chains.map((c) => ({
        chainId: c.chainId,
        client: countedClient(createPublicClient({ transport: http(c.rpcUrl) }) as PublicClient, counts),
      }));
      await runIngestionPass({
        store,
        pools: demoPoolConfigs(day.pools),
        chains,
        feeds: {},
        now: () => day.time,
        issue: false,
        freshnessWindowS: 3600,
        log: () => {},
      });
      passes++;
      readMs += Date.now() - t;
    },
  });
  const totalMs = Date.now() - started;
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);
  await demo.stop();
  await store.close();
  const requests = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(
    `demo start: ${DEMO_DEFAULT_DAYS} days on 3 chains, ${demo.pools.length} pools, ${demo.stats.transactions} transactions; ` +
      `setup ${demo.stats.setupMs} ms, total ${totalMs} ms, of which ${readMs} ms in ${passes} ingestion passes ` +
      `(${passes * 3} chain reads; ${requests} RPC requests: ${[...counts].map(([m, n]) => `${m} ${n}`).join(", ")}); ` +
      `process RSS ${rssMb} MB`,
  );
}

/** A client whose requests are counted by method into `counts`. */
function countedClient(client: PublicClient, counts: Map<string, number>): PublicClient {
  return createPublicClient({
    transport: custom(
      {
        request: ({ method, params }: { method: string; params?: unknown }) => {
          counts.set(method, (counts.get(method) ?? 0) + 1);
          return client.request({ method, params } as never);
        },
      },
      { retryCount: 0 },
    ),
  });
}

/**
 * 200 swaps on the first 100 pairs over 12 hours of chain time, then the pass's swap-log reading for 10, 100 and
 * 1,000 pairs: the first read (lookback from the UTC midnight before the last 24 h) and, after 75 more blocks (about
 * 15 minutes of mainnet) with swaps, the next one from the cursors.
 */
async function benchSwapLogs(
  driver: ReturnType<typeof createChainDriver>,
  client: PublicClient,
  pairs: Address[],
  lp: Address,
): Promise<void> {
  let time = (await driver.latestBlock()).timestamp;
  const swapBlocks = async (count: number, gapS: number) => {
    for (let i = 0; i < count; i++) {
      const pair = pairs[i % 100];
      const { token0 } = await readPair(driver, pair);
      time += gapS;
      await driver.request("evm_setNextBlockTimestamp", [numberToHex(time)]);
      await swapExactIn(driver, { from: lp, pair, tokenIn: token0, amountIn: 10n ** 15n });
    }
  };
  await swapBlocks(200, 216);
  console.log("");
  console.log("| pools | read | blocks | eth_getLogs | block headers | RPC requests | swaps | ms |");
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const size of SIZES) {
    const store = await openStore({ file: ":memory:" });
    const addresses = pairs.slice(0, size).map((p) => p.toLowerCase());
    for (const phase of ["first", "next"] as const) {
      if (phase === "next") await swapBlocks(37, 12); // 74 blocks, 12 s apart
      const latest = await driver.latestBlock();
      const pinned = { block: latest.number, time: latest.timestamp };
      const counts = new Map<string, number>();
      const started = Date.now();
      const { data } = await readSwapLogsStep({
        db: store.db,
        chainId: 1,
        client: countedClient(client, counts),
        pools: addresses,
        pinned,
        options: DEFAULT_LOG_READ_OPTIONS,
        log: () => {},
      });
      const ms = Date.now() - started;
      for (const pool of data.pools) {
        await advanceLogCursor(store.db, {
          source: SWAPS_SOURCE,
          chainId: 1,
          from: pool.fromStored ? pool.from.nextBlock : null,
          to: { address: pool.address, nextBlock: pool.readTo + 1n, lastBlockTime: pool.readToTime },
          now: pinned.time,
        });
      }
      const blocks = data.pools.length > 0 ? pinned.block - data.pools[0].from.nextBlock + 1n : 0n;
      const swaps = data.pools.reduce((n, p) => n + p.swaps.length, 0);
      console.log(
        `| ${size} | ${phase} | ${blocks} | ${counts.get("eth_getLogs") ?? 0} | ${counts.get("eth_getBlockByNumber") ?? 0} | ${data.rpcRequests} | ${swaps} | ${ms} |`,
      );
    }
    await store.close();
  }
  console.log("");
  console.log(
    `eth_getLogs = one per ${DEFAULT_LOG_READ_OPTIONS.rangeBlocks} blocks with every pair's address; block headers = ` +
      "the lookback search plus the few needed to place swaps in their UTC hour.",
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
