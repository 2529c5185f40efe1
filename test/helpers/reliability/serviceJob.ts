import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "../../../src/demo/feedServer";
import { MainJob, freePort } from "../e2e/mainJob";
import { startLocalMarket, type LocalMarket } from "../ingest/localMarket";
import { TEST_KEY } from "../service/app";

/** The compiled service (`npm run build` first) in a child process, configured against a local market and PostgreSQL. */
export interface ServiceJob {
  job: MainJob;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  port: number;
  /** Kills the child if it still runs, then stops the market and the feeds and removes the temp folder. */
  stop(): Promise<void>;
}

/**
 * Starts `dist/main/start.js` as `npm start` does, configured (not the demo): one local chain with a Uniswap V2 pair,
 * the loopback feed server for it, the test attester key, `DATABASE_URL`, and `env` on top. Resolves once the service
 * logs that it is ready.
 */
export async function startServiceJob(parameters: {
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<ServiceJob> {
  const dir = mkdtempSync(join(tmpdir(), "service-job-"));
  let market: LocalMarket | undefined;
  let feeds: FeedServer | undefined;
  let job: MainJob | undefined;
  const stop = async () => {
    job?.kill();
    if (job) await job.exited;
    await feeds?.close();
    await market?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    market = await startLocalMarket({ genesisTime: Math.floor(Date.now() / 1000) - 86_400 });
    const described = market.pools.map((pool) => ({ ...pool, underlying: pool.underlying ? [pool.underlying] : [] }));
    feeds = await startFeedServer({ pools: described });
    const poolsFile = join(dir, "pools.json");
    writeFileSync(poolsFile, JSON.stringify({ pools: demoPoolConfigs(described) }, null, 2));
    const port = await freePort();
    job = new MainJob({
      DATA_DIR: join(dir, "data"),
      PORT: String(port),
      POOLS_FILE: poolsFile,
      [`RPC_URL_${market.chain.chainId}`]: market.chain.rpcUrl,
      DEFILLAMA_YIELDS_URL: feeds.urls.defillamaYieldsUrl,
      DEFILLAMA_API_URL: feeds.urls.defillamaApiUrl,
      MERKL_API_URL: feeds.urls.merklApiUrl,
      ATTESTER_PRIVATE_KEY: TEST_KEY,
      DATABASE_URL: parameters.databaseUrl,
      LOG_LEVEL: "warn",
      ...parameters.env,
    });
    await job.waitFor(/ready: attester/);
    return { job, base: `http://127.0.0.1:${port}`, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
