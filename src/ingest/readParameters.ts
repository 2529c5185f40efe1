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
