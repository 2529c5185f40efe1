import type { PublicClient } from "viem";
import type { PoolConfig } from "../../model/poolConfig";
import type { SourceReport } from "../../storage/ingestRuns";
import { readPools, type OnchainPoolRef } from "../onchain/readPools";
import type { OnchainReading } from "../rows/poolValues";
import { failedReport, errorMessage, type StepResult } from "./stepResult";
import type { PinnedBlock } from "./swapLogs";

/**
 * What one chain's read gave: the block it was pinned to (null when the chain could not be read) and the readings;
 * `wrongChain`, when its RPC answers another chain id, is the cause every source of that chain fails with this pass.
 */
export interface ChainRead {
  pinned: PinnedBlock | null;
  readings: OnchainReading[];
  wrongChain?: string;
}

/** Parameters of {@link readChainStep}. */
export interface ReadChainStepParameters {
  chainId: number;
  /** The tracked pools of this chain. */
  pools: readonly PoolConfig[];
  /** The chain's client; without one the chain is reported as failing and nothing is read. */
  client: PublicClient | undefined;
  log: (line: string) => void;
}

/**
 * Source `chain:<id>`: first asks the chain's RPC for `eth_chainId` ({@link wrongChainId}): when it answers another
 * chain, nothing is read and the report (and `data.wrongChain`) names the cause. Then reads every pool of one chain at
 * one block (`readPools`). A pool whose reads fail is named in
 * the report's error and the others are still returned (report not ok, rows > 0); a chain that cannot be read at all
 * is reported with 0 rows. Never throws.
 *
 * @returns the chain's report, its pinned block and one {@link OnchainReading} per observed pool.
 */
export async function readChainStep(parameters: ReadChainStepParameters): Promise<StepResult<ChainRead>> {
  const { chainId, pools, client, log } = parameters;
  const name = `chain:${chainId}`;
  const none: ChainRead = { pinned: null, readings: [] };
  if (!client) return { report: { ok: false, error: "no RPC client configured for this chain", rows: 0 }, data: none };
  try {
    const wrongChain = await wrongChainId({ chainId, client });
    if (wrongChain !== null) {
      log(`${name}: ${wrongChain}; nothing of chain ${chainId} is read this pass`);
      return { report: { ok: false, rows: 0, error: wrongChain }, data: { ...none, wrongChain } };
    }
    const result = await readPools({ client, pools: pools.map((p) => onchainRef(chainId, p)) });
    const block = result.blockNumber.toString();
    const data = result.observations.map((observation) => ({ observation, block, observedAt: result.observedAt }));
    const failed = result.failures.map((f) => `${f.address}: ${f.error}`);
    const report: SourceReport = {
      ok: failed.length === 0,
      rows: result.observations.length,
      ...(failed.length > 0 ? { error: `${failed.length} pool(s) failed: ${failed.join("; ").slice(0, 500)}` } : {}),
    };
    return { report, data: { pinned: { block: result.blockNumber, time: result.observedAt }, readings: data } };
  } catch (error) {
    log(`${name}: ${errorMessage(error)}`);
    return { report: failedReport(error), data: none };
  }
}

/**
 * Asks `client` for `eth_chainId` (viem `getChainId`, nothing cached) at every pass: an RPC re-pointed at
 * another chain (a load balancer, a provider mixing endpoints up) would store that chain's values under this one's
 * pools.
 *
 * @returns null when the RPC answers `chainId`, else the cause, e.g. `RPC_URL_1 answers eth_chainId 42161, not 1`.
 * @throws when the RPC does not answer.
 */
export async function wrongChainId({
  chainId,
  client,
}: {
  chainId: number;
  client: PublicClient;
}): Promise<string | null> {
  const answered = await client.getChainId();
  return answered === chainId ? null : `RPC_URL_${chainId} answers eth_chainId ${answered}, not ${chainId}`;
}

/** The on-chain reference of a tracked pool. */
function onchainRef(chainId: number, pool: PoolConfig): OnchainPoolRef {
  return {
    chainId,
    address: pool.address,
    kind: pool.kind,
    ...(pool.lendingPool ? { lendingPool: pool.lendingPool } : {}),
    ...(pool.underlying ? { underlying: pool.underlying } : {}),
  };
}
