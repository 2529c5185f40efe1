import { createChainClients } from "../chain/chainClients";
import type { ServiceConfig } from "../config/loadConfig";
import { ConfigError } from "../errors/config";
import { RpcUnreachableAtStartError } from "../errors/startup";
import { redactRpcUrl } from "@attestation-registry/sdk/errors";
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

export type AssertChainIdsParameters = { rpcUrls: ServiceConfig["rpcUrls"] };

/**
 * Asks each `RPC_URL_<id>` for `eth_chainId` (viem `getChainId`), all at once, before the start writes anything
 * (docs/operations.md#start-up-checks): swapped URLs would store one chain's depth under another chain's pools.
 *
 * @param {@link AssertChainIdsParameters}
 * @throws {@link ConfigError} (exit 78) naming the variable and both ids when an endpoint serves another chain (the
 *   lowest such chain id is named); {@link RpcUnreachableAtStartError} (exit 1) when one does not answer.
 */
export async function assertChainIds({ rpcUrls }: AssertChainIdsParameters): Promise<void> {
  const answers = await Promise.all(
    createChainClients(rpcUrls).map(async ({ chainId, client }) => {
      const variable = `RPC_URL_${chainId}`;
      try {
        return { chainId, variable, answered: await client.getChainId() };
      } catch (cause) {
        throw new RpcUnreachableAtStartError({ variable, endpoint: redactRpcUrl(rpcUrls[chainId]), cause });
      }
    }),
  );
  const wrong = answers.sort((a, b) => a.chainId - b.chainId).find((answer) => answer.answered !== answer.chainId);
  if (wrong !== undefined) {
    throw new ConfigError({
      variable: wrong.variable,
      message: `answers eth_chainId ${wrong.answered}, not ${wrong.chainId} (swapped RPC URLs?): point it at chain ${wrong.chainId}'s endpoint`,
    });
  }
}
