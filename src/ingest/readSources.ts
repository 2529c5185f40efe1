import type { Address, PublicClient } from "viem";
import type { PoolConfig } from "../model/poolConfig";
import type { SourceReport } from "../storage/ingestRuns";
import type { Store } from "../storage/openStore";
import { getPools } from "../storage/pools";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { poolKey } from "./poolKey";
import type { OnchainReading } from "./rows/poolValues";
import { priceReading, readingTokens } from "./rows/priceReading";
import { pairPricesFromState } from "./rows/swapVolume";
import { readChainStep, wrongChainId, type ChainRead } from "./steps/chains";
import { readCoinPricesStep, type CoinPrices } from "./steps/defillamaCoins";
import { readChartStep } from "./steps/defillamaChart";
import { readDexVolumesStep } from "./steps/defillamaDexVolumes";
import { readYieldsStep } from "./steps/defillamaYields";
import { readMerklStep } from "./steps/merkl";
import { readRegistryStep, type RegistryRead } from "./steps/registryLogs";
import type { StepResult } from "./steps/stepResult";
import { DEFAULT_LOG_READ_OPTIONS, readSwapLogsStep, type LogReadOptions, type SwapRead } from "./steps/swapLogs";
import type { PassData } from "./writePass";

/** Feed base URLs; a feed without a URL is not read (and not reported as failing). */
export interface FeedUrls {
  /** e.g. `https://yields.llama.fi` (`/pools`, `/chart/{pool}`). */
  defillamaYieldsUrl?: string;
  /** e.g. `https://api.llama.fi` (`/overview/dexs/{chain}`). */
  defillamaApiUrl?: string;
  /**
   * e.g. `https://coins.llama.fi` (`/prices/current/{chain}:{address},…`). When set, USD depth and volume are valued
   * with these prices instead of prices derived on chain from the pairs.
   */
  defillamaCoinsUrl?: string;
  /** e.g. `https://api.merkl.xyz` (`/v4/opportunities`). */
  merklApiUrl?: string;
}

/** What the read phase needs (the pass's parameters, its clock resolved). */
export interface ReadSourcesParameters {
  store: Store;
  pools: readonly PoolConfig[];
  chains: readonly { chainId: number; client: PublicClient }[];
  feeds: FeedUrls;
  registry?: { chainId: number; address: Address } | null;
  now: () => number;
  log: (line: string) => void;
  feedOptions?: Omit<FeedRequestOptions, "log">;
  /** A coin price whose `confidence` is below this is not used (`PRICE_MIN_CONFIDENCE`). Default 0.9. */
  priceMinConfidence?: number;
  logs?: Partial<LogReadOptions>;
  dexVolumeDays?: number;
  backfillBelowDays?: number;
}

/** What the read phase gathered: each configured source's report, the data, and the first step that threw. */
export interface ReadSourcesResult {
  sources: Record<string, SourceReport>;
  data: PassData;
  failure?: { reason: unknown };
}

/** A step's result, or (when it threw: only a store read can) its empty data and the failure. */
type Settled<T> = StepResult<T> & { failure?: { reason: unknown } };
type Named = [string, Settled<unknown>];

const settle = <T>(step: Promise<StepResult<T>>, empty: T): Promise<Settled<T>> =>
  step.catch((reason: unknown) => ({ report: undefined, data: empty, failure: { reason } }));

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
  const named: Named[] = [...onchain.named, ...feeds.named];
  const sources: Record<string, SourceReport> = {};
  for (const [name, step] of named) if (step.report) sources[name] = step.report;
  const failure = named.find(([, step]) => step.failure)?.[1].failure;
  const data: PassData = { ...feeds.data, ...onchain.data };
  return { sources, data, ...(failure ? { failure } : {}) };
}

type OnchainData = Pick<PassData, "onchain" | "swaps" | "registry" | "tokenPrices" | "olderReadings">;
type FeedData = Omit<PassData, keyof OnchainData>;

/** The chains, their coin prices, their `Swap` logs and the registry's events. */
async function readOnchain(parameters: ReadSourcesParameters): Promise<{ named: Named[]; data: OnchainData }> {
  const { store, pools, chains, feeds, log } = parameters;
  const feedOptions: FeedRequestOptions = { ...parameters.feedOptions, log };
  const chainIds = [...new Set(pools.map((p) => p.chainId))].sort((a, b) => a - b);
  const clientOf = (chainId: number) => chains.find((c) => c.chainId === chainId)?.client;
  const empty: ChainRead = { pinned: null, readings: [] };
  const reads = await Promise.all(
    chainIds.map((chainId) =>
      settle(
        readChainStep({ chainId, pools: pools.filter((p) => p.chainId === chainId), client: clientOf(chainId), log }),
        empty,
      ),
    ),
  );
  const older = await readingsBehindStoredDepth(store, reads, chainIds, log);
  const raw = reads.flatMap((step) => step.data.readings);
  const tokens = raw.flatMap((r) => readingTokens(r).map((token) => ({ chainId: r.observation.chainId, token })));
  const coins = await settle(
    readCoinPricesStep({
      db: store.db,
      coinsUrl: feeds.defillamaCoinsUrl,
      tokens,
      feedOptions,
      log,
      minConfidence: parameters.priceMinConfidence,
    }),
    null,
  );
  const readings = coins.data ? raw.map((reading) => priced(reading, coins.data!)) : raw;
  const onchain = new Map(readings.map((r) => [poolKey(r.observation.chainId, r.observation.address), r]));

  const options: LogReadOptions = { ...DEFAULT_LOG_READ_OPTIONS, ...definedOnly(parameters.logs ?? {}) };
  const swapSteps = chainIds.map((chainId, i): Promise<Settled<SwapRead | null> | null> => {
    const { pinned, wrongChain } = reads[i].data;
    const client = clientOf(chainId);
    if (wrongChain !== undefined) return Promise.resolve(refused(wrongChain));
    if (!pinned || !client) return Promise.resolve(null);
    const valued = pools
      .filter((p) => p.chainId === chainId && p.kind === "amm")
      .map((p) => p.address.toLowerCase())
      .filter((address) => canValue(onchain.get(poolKey(chainId, address))));
    const none: SwapRead = { chainId, pinned, pools: [], rpcRequests: 0 };
    return settle(readSwapLogsStep({ db: store.db, chainId, client, pools: valued, pinned, options, log }), none);
  });
  const { registry } = parameters;
  const registryStep = registry
    ? registryWrongChain(
        registry.chainId,
        reads[chainIds.indexOf(registry.chainId)]?.data,
        clientOf(registry.chainId),
      ).then((wrongChain) =>
        wrongChain !== null
          ? refused(wrongChain)
          : settle(
              readRegistryStep({
                db: store.db,
                registry,
                client: clientOf(registry.chainId),
                pinned: reads[chainIds.indexOf(registry.chainId)]?.data.pinned ?? undefined,
                options,
                log,
              }),
              null as RegistryRead | null,
            ),
      )
    : Promise.resolve(null);
  const [swaps, registryRead] = await Promise.all([Promise.all(swapSteps), registryStep]);

  const named: Named[] = [
    ...chainIds.map((chainId, i): Named => [`chain:${chainId}`, reads[i]]),
    ...chainIds.flatMap((chainId, i): Named[] => (swaps[i] ? [[`swaps:${chainId}`, swaps[i]!]] : [])),
    ...(registryRead ? [["registry", registryRead] as Named] : []),
    ["defillama-coins", coins],
  ];
  return {
    named,
    data: {
      onchain,
      swaps: swaps.flatMap((step) => (step?.data ? [step.data] : [])),
      registry: registryRead?.data ?? null,
      tokenPrices: coins.data?.rows ?? [],
      olderReadings: older,
    },
  };
}

/** The feeds: DefiLlama yields, chart and dex volumes, and Merkl, concurrently. */
async function readFeeds(parameters: ReadSourcesParameters): Promise<{ named: Named[]; data: FeedData }> {
  const { store, pools, feeds, log, now } = parameters;
  const feedOptions: FeedRequestOptions = { ...parameters.feedOptions, log };
  const chainIds = [...new Set(pools.map((p) => p.chainId))].sort((a, b) => a - b);
  const [yields, chart, dex, merkl] = await Promise.all([
    settle(readYieldsStep({ db: store.db, pools, yieldsUrl: feeds.defillamaYieldsUrl, feedOptions }), null),
    settle(
      readChartStep({
        db: store.db,
        pools,
        yieldsUrl: feeds.defillamaYieldsUrl,
        feedOptions,
        backfillBelowDays: parameters.backfillBelowDays ?? 14,
      }),
      new Map(),
    ),
    settle(
      readDexVolumesStep({
        chainIds,
        apiUrl: feeds.defillamaApiUrl,
        feedOptions,
        days: parameters.dexVolumeDays ?? 30,
        now,
      }),
      [],
    ),
    settle(readMerklStep({ db: store.db, pools, chainIds, merklUrl: feeds.merklApiUrl, feedOptions, now }), null),
  ]);
  return {
    named: [
      ["defillama-yields", yields],
      ["defillama-chart", chart],
      ["defillama-dexs", dex],
      ["merkl", merkl],
    ],
    data: { llamaPools: yields.data, charts: chart.data, dexVolumes: dex.data, opportunities: merkl.data },
  };
}

/** A source of a chain whose RPC answers another chain id (`wrongChain`): failed with that cause, no data. */
const refused = (wrongChain: string): Settled<null> => ({
  report: { ok: false, rows: 0, error: wrongChain },
  data: null,
});

/**
 * Why the registry's chain may not be read this pass: the cause its chain's read found, or (a chain with no tracked
 * pool, so not read) its own `eth_chainId` check; null when it answers its id, or does not answer (the registry step
 * then reports that).
 */
async function registryWrongChain(
  chainId: number,
  read: ChainRead | undefined,
  client: PublicClient | undefined,
): Promise<string | null> {
  if (read !== undefined) return read.wrongChain ?? null;
  if (client === undefined) return null;
  return wrongChainId({ chainId, client }).catch(() => null);
}

/**
 * The readings taken at a block older than the depth block their pool has stored (a node behind, or a load balancer
 * answering from one): they are not stored (their keys are returned for the write) and not taken for a
 * reorganisation. Each chain that gave one has its report turned failing, naming the blocks, with the count in
 * `dropped`; the rest of its readings are used.
 */
async function readingsBehindStoredDepth(
  store: Store,
  reads: readonly Settled<ChainRead>[],
  chainIds: readonly number[],
  log: (line: string) => void,
): Promise<Set<string>> {
  const older = new Set<string>();
  const readings = reads.flatMap((step) => step.data.readings);
  if (readings.length === 0) return older;
  const stored = await getPools(
    store.db,
    readings.map((r) => ({ chainId: r.observation.chainId, address: r.observation.address })),
  );
  reads.forEach((step, i) => {
    const behind: string[] = [];
    for (const reading of step.data.readings) {
      const index = readings.indexOf(reading);
      const storedBlock = stored[index]?.depth_block;
      if (storedBlock === null || storedBlock === undefined || BigInt(reading.block) >= BigInt(storedBlock)) continue;
      older.add(poolKey(reading.observation.chainId, reading.observation.address));
      behind.push(`${reading.observation.address.toLowerCase()} (stored ${storedBlock})`);
    }
    if (behind.length === 0 || !step.report) return;
    const block = step.data.readings[0]?.block;
    const cause =
      `RPC node is behind: read at block ${block}, older than the stored depth of ${behind.length} pool(s): ` +
      `${behind.join(", ")}; not stored`;
    log(`chain:${chainIds[i]}: ${cause}`);
    const error = [cause, step.report.error].filter((e) => e !== undefined).join("; ");
    step.report = {
      ...step.report,
      ok: false,
      rows: (step.report.rows ?? 0) - behind.length,
      dropped: (step.report.dropped ?? 0) + behind.length,
      error: error.slice(0, 500),
    };
  });
  return older;
}

/** A reading re-valued with the coin prices (this pass's, else cached). */
function priced(reading: OnchainReading, coins: CoinPrices): OnchainReading {
  const chainId = reading.observation.chainId;
  return priceReading({ reading, quote: (token) => coins.quotes.get(`${chainId}:${token.toLowerCase()}`) });
}

/** Whether an AMM reading has at least one price to value swaps with. */
function canValue(reading: OnchainReading | undefined): boolean {
  const prices = reading ? pairPricesFromState(reading.observation.state) : null;
  return prices !== null && (prices.price0Usd !== null || prices.price1Usd !== null);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
