import type { SourceReport } from "../storage/ingestRuns";
import { poolKey } from "./poolKey";
import type { ReadSourcesParameters } from "./readParameters";
import { readFeeds } from "./readFeeds";
import { readOnchain } from "./readOnchain";
import type { NamedStep } from "./steps/stepResult";
import type { PassData } from "./writePass";

export type { FeedUrls, ReadSourcesParameters } from "./readParameters";

/** What the read phase gathered: each configured source's report, the data, and the first step that threw. */
export interface ReadSourcesResult {
  sources: Record<string, SourceReport>;
  data: PassData;
  failure?: { reason: unknown };
  /** Tracked pools with an on-chain reading from this pass. */
  observedPools: number;
}

/**
 * The read phase of a pass (network and store reads, no writes). The feeds run concurrently with the on-chain part:
 * every chain through `readPools` at once; then the coin prices of the tokens read (when configured) and the
 * readings re-valued with them; then, per chain, the `Swap` logs of its AMM pools up to the block it was read at, and
 * the registry's events. A chain whose RPC answers another chain id (`eth_chainId`, asked once per chain per pass) is
 * not read: its `chain:<id>`, `swaps:<id>` and (on that chain) `registry` reports fail with that cause. Reports come
 * out in a fixed order: `chain:<id>` by id, `swaps:<id>` by id, `registry`, `defillama-coins`, `defillama-yields`,
 * `defillama-chart`, `defillama-dexs`, `merkl`.
 *
 * @param {@link ReadSourcesParameters}
 */
export async function readSources(parameters: ReadSourcesParameters): Promise<ReadSourcesResult> {
  const [feeds, onchain] = await Promise.all([readFeeds(parameters), readOnchain(parameters)]);
  const named: NamedStep[] = [...onchain.named, ...feeds.named];
  const sources: Record<string, SourceReport> = {};
  for (const [name, step] of named) if (step.report) sources[name] = step.report;
  const failure = named.find(([, step]) => step.failure)?.[1].failure;
  const data: PassData = { ...feeds.data, ...onchain.data };
  // Tracked pools with an on-chain reading from this pass.
  const tracked = new Set(parameters.pools.map((p) => poolKey(p.chainId, p.address)));
  const observedPools = [...data.onchain.keys()].filter((key) => tracked.has(key)).length;
  return { sources, data, observedPools, ...(failure ? { failure } : {}) };
}
