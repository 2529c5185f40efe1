import { createChainClients } from "../chain/chainClients";
import type { ServiceConfig } from "../config/loadConfig";
import { loadPoolsFile } from "../ingest/poolsFile";
import type { IngestSource } from "../ingest/source";

export type OpenConfiguredSourceParameters = {
  config: Pick<ServiceConfig, "poolsFile" | "rpcUrls" | "feeds" | "registry">;
  log: (line: string) => void;
};

/**
 * The configured deployment as an {@link IngestSource}: the pools of POOLS_FILE, read through RPC_URL_<chainId>,
 * with the configured feeds and registry. Starts nothing, so `stop()` has nothing to stop.
 *
 * @param {@link OpenConfiguredSourceParameters}
 * @throws when the pools file is invalid, or tracks a pool on a chain without RPC_URL_<chainId>.
 */
export async function openConfiguredSource({ config, log }: OpenConfiguredSourceParameters): Promise<IngestSource> {
  const pools = await loadPoolsFile({ path: config.poolsFile as string });
  const missing = [...new Set(pools.map((pool) => pool.chainId))].filter((id) => !(id in config.rpcUrls));
  if (missing.length > 0) {
    throw new Error(`POOLS_FILE tracks pools on chain(s) ${missing.join(", ")} without RPC_URL_<chainId>; set them`);
  }
  const chains = createChainClients(config.rpcUrls);
  log(`configured: ${pools.length} pool(s) on chain(s) ${Object.keys(config.rpcUrls).join(", ")}`);
  return { pools, chains, feeds: config.feeds, registry: config.registry, localChains: [], stop: async () => {} };
}
