import type { PublicClient } from "viem";
import type { Store } from "../storage/openStore";
import { getPools } from "../storage/pools";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import { poolKey } from "./poolKey";
import type { ReadSourcesParameters } from "./readParameters";
import type { OnchainReading } from "./rows/poolValues";
import { priceReading, readingTokens } from "./rows/priceReading";
import { pairPricesFromState } from "./rows/swapVolume";
import { readChainStep, wrongChainId, type ChainRead } from "./steps/chains";
import { readCoinPricesStep } from "./steps/defillamaCoins";
import { readRegistryStep, type RegistryRead } from "./steps/registryLogs";
import { settle, type NamedStep, type Settled } from "./steps/stepResult";
import { DEFAULT_LOG_READ_OPTIONS, readSwapLogsStep, type LogReadOptions, type SwapRead } from "./steps/swapLogs";
import type { PassData } from "./writePass";

/** What the on-chain part gives a pass. */
type OnchainData = Pick<PassData, "onchain" | "swaps" | "registry" | "tokenPrices" | "olderReadings">;

/**
 * The on-chain part of the read phase: the chains, their coin prices, their `Swap` logs and the registry's events.
 */
export async function readOnchain(
  parameters: ReadSourcesParameters,
): Promise<{ named: NamedStep[]; data: OnchainData }> {
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
  const quotes = coins.data?.quotes;
  const readings = quotes
    ? raw.map((reading) => {
        const chainId = reading.observation.chainId;
        return priceReading({ reading, quote: (token) => quotes.get(`${chainId}:${token.toLowerCase()}`) });
      })
    : raw;
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

  const named: NamedStep[] = [
    ...chainIds.map((chainId, i): NamedStep => [`chain:${chainId}`, reads[i]]),
    ...chainIds.flatMap((chainId, i): NamedStep[] => (swaps[i] ? [[`swaps:${chainId}`, swaps[i]]] : [])),
    ...(registryRead ? [["registry", registryRead] as NamedStep] : []),
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
      const storedBlock = stored[index]?.depthBlock;
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

/** Whether an AMM reading has at least one price to value swaps with. */
function canValue(reading: OnchainReading | undefined): boolean {
  const prices = reading ? pairPricesFromState(reading.observation.state) : null;
  return prices !== null && (prices.price0Usd !== null || prices.price1Usd !== null);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
