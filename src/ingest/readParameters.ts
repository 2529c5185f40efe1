import type { Address, PublicClient } from "viem";
import type { PoolConfig } from "../model/poolConfig";
import type { Store } from "../storage/openStore";
import type { FeedRequestOptions } from "./feeds/fetchJson";
import type { LogReadOptions } from "./steps/swapLogs";

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

/** What the read phase needs: the pass's parameters that its sources read ({@link RunIngestionPassParameters}). */
export interface ReadSourcesParameters {
  store: Store;
  pools: readonly PoolConfig[];
  /** One viem public client per chain; pools on a chain without a client are not read on chain. */
  chains: readonly { chainId: number; client: PublicClient }[];
  feeds: FeedUrls;
  /** The AttestationRegistry whose events become `registry.<EventName>` activity events; null or absent: none. */
  registry?: { chainId: number; address: Address } | null;
  /** Clock, Unix seconds. */
  now: () => number;
  log: (line: string) => void;
  /** Timeout and retry policy for every feed request (defaults: 15 s, 2 retries, 250 ms backoff). */
  feedOptions?: Omit<FeedRequestOptions, "log">;
  /** `PRICE_MIN_CONFIDENCE`: a coin price whose DefiLlama `confidence` is below this is not used. Default 0.9. */
  priceMinConfidence?: number;
  /** How logs are paged (defaults: 2000 blocks a request, 200 requests per chain and source, 86 400 s lookback). */
  logs?: Partial<LogReadOptions>;
  /** Days of dex volume history kept per pass. Default 30. */
  dexVolumeDays?: number;
  /** Pools with fewer recorded days than this get DefiLlama `/chart` history backfilled. Default 14. */
  backfillBelowDays?: number;
}
