/**
 * RPC requests of one `readPools` pass for 10, 100 and 1,000 Uniswap V2 pairs on one local chain.
 *
 * Deploys 46 tokens (USDC, 6 decimals, plus 45 others) and 1,000 distinct pairs among them, each with
 * liquidity, then reads the first 10, 100 and 1,000 pairs at three multicall batch sizes. Then times the demo's
 * start (`startDemoChains`, default days) with one `readPools` pass per chain per simulated day. Run with
 * `npm run bench:ingest`. Prints a Markdown table; timings are indicative (shared 2-core machine).
 */
import { createPublicClient, http, keccak256, stringToHex, type Address, type PublicClient } from "viem";
import { createChainDriver } from "../src/chain/chainDriver";
import { deployMulticall3 } from "../src/chain/multicall3";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain } from "../src/chain/startLocalChain";
import {
  addLiquidity,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  readPair,
  type DemoToken,
} from "../src/chain/uniswapV2";
import { readPools } from "../src/ingest/onchain/readPools";
import { DEMO_DEFAULT_DAYS } from "../src/demo/demoConfig";
import { startDemoChains } from "../src/demo/startDemoChains";

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
  } finally {
    await chain.stop();
  }

  // The demo's own start: 3 chains, DEMO_DEFAULT_DAYS of history, one readPools pass per chain per day.
  console.log("");
  let passes = 0;
  let requests = 0;
  let readMs = 0;
  const started = Date.now();
  const demo = await startDemoChains({
    days: DEMO_DEFAULT_DAYS,
    attesterPrivateKey: keccak256(stringToHex("bench attester")),
    log: () => {},
    onDay: async (day) => {
      const t = Date.now();
      for (const c of day.chains) {
        const block = day.blocks.find((b) => b.chainId === c.chainId)!;
        const client = createPublicClient({ transport: http(c.rpcUrl) }) as PublicClient;
        const result = await readPools({
          client,
          pools: day.pools.filter((p) => p.chainId === c.chainId),
          blockNumber: block.blockNumber,
        });
        passes++;
        requests += result.rpcRequests;
      }
      readMs += Date.now() - t;
    },
  });
  const totalMs = Date.now() - started;
  const rssMb = Math.round(process.memoryUsage().rss / 1e6);
  await demo.stop();
  console.log(
    `demo start: ${DEMO_DEFAULT_DAYS} days on 3 chains, ${demo.pools.length} pools, ${demo.stats.transactions} transactions; ` +
      `setup ${demo.stats.setupMs} ms, total ${totalMs} ms, of which ${readMs} ms in ${passes} readPools passes (${requests} RPC requests); process RSS ${rssMb} MB`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
