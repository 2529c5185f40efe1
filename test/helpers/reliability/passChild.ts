/**
 * Child process for the crash tests: runs ingestion passes against a SQLite file, printing one line per event, until
 * it is killed. Configured by the JSON file named in the PASS_CHILD_CONFIG environment variable. Run with
 * `node -r ts-node/register/transpile-only test/helpers/reliability/passChild.ts`.
 */
import { readFileSync } from "node:fs";
import { createPublicClient, http, type PublicClient } from "viem";
import { runIngestionPass, type FeedUrls } from "../../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../../src/model/poolConfig";
import { openStore } from "../../../src/storage/openStore";

interface ChildConfig {
  file: string;
  rpcUrl: string;
  chainId: number;
  feeds: FeedUrls;
  pools: PoolConfig[];
  /** Clock of the first pass; each later pass is one second later. */
  startTime: number;
  /** Number of passes (Infinity: until killed). */
  passes: number | null;
}

async function main() {
  const config = JSON.parse(readFileSync(process.env.PASS_CHILD_CONFIG ?? "", "utf8")) as ChildConfig;
  const store = await openStore({ file: config.file });
  const client = createPublicClient({ transport: http(config.rpcUrl) }) as PublicClient;
  const limit = config.passes ?? Number.POSITIVE_INFINITY;
  for (let i = 0; i < limit; i++) {
    const now = config.startTime + i;
    process.stdout.write(`pass-start ${i}\n`);
    const report = await runIngestionPass({
      store,
      pools: config.pools,
      chains: [{ chainId: config.chainId, client }],
      feeds: config.feeds,
      now: () => now,
      issue: false,
      freshnessWindowS: 3600,
      feedOptions: { timeoutMs: 120_000, retries: 0 },
      log: () => undefined,
    });
    process.stdout.write(`pass-done ${i} ${report.status}\n`);
  }
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
