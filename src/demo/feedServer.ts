import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import type { PoolConfig } from "../model/poolConfig";
import {
  BadFeedRequest,
  demoDefillamaId,
  demoMerklId,
  routeFeed,
  type FeedContext,
  type FeedHistoryPoint,
  type FeedName,
  type FeedServerCampaign,
  type FeedServerPool,
  type FeedSnapshot,
} from "./feedBodies";

/** How a feed misbehaves, for demos and reliability tests. */
export type FeedFault = "none" | "timeout" | "error" | "garbage" | "invalid";

/** Parameters of {@link startFeedServer}. */
export interface StartFeedServerParameters {
  pools: readonly FeedServerPool[];
  /** Loopback port; 0 or omitted picks a free one. */
  port?: number;
  /** Clock for timestamps in responses, Unix seconds. Default wall-clock. */
  now?: () => number;
  /** Live values per pool; missing values are derived deterministically from the pool's identity. */
  snapshot?: (pool: FeedServerPool) => FeedSnapshot | undefined;
  /** Delay before every answer, in ms (a slow feed). Default 0. */
  delayMs?: number;
  /** Initial faults per feed. */
  faults?: Partial<Record<FeedName, FeedFault>>;
  /**
   * Merkl campaigns to serve. When given, Merkl lists only the pools that have one, each campaign from its start on
   * (ended ones stay listed, as past campaigns are), and the yields feed's reward APY is that of the campaigns running
   * at the clock's time. Default: one campaign per pool, derived from its identity, around the clock's day.
   */
  campaigns?: readonly FeedServerCampaign[];
  /**
   * Whether the feeds list a pool at the moment (yields `/pools`, Merkl). `/chart` keeps answering for a pool no longer
   * listed (its history). Default: always.
   */
  listed?: (pool: FeedServerPool) => boolean;
  /**
   * A pool's past TVL, oldest first: `/chart` serves these points before the present one (how a configured process's
   * first passes backfill the daily history, as from DefiLlama). Default: none, the chart is the present alone.
   */
  history?: (pool: FeedServerPool) => readonly FeedHistoryPoint[];
}

export interface FeedServer {
  urls: { defillamaYieldsUrl: string; defillamaApiUrl: string; merklApiUrl: string };
  /** Changes how one feed answers from now on. */
  setFault(feed: FeedName, fault: FeedFault): void;
  /** Changes the delay before every answer. */
  setDelay(ms: number): void;
  /** Requests received per feed (counted on arrival, before any delay). */
  readonly requests: Record<FeedName, number>;
  close(): Promise<void>;
}

/** The pools-file entries for the demo's pools, with the feed identifiers this server uses. */
export function demoPoolConfigs(pools: readonly FeedServerPool[]): PoolConfig[] {
  return pools.map((p) => ({
    chainId: p.chainId,
    address: p.address.toLowerCase() as Address,
    kind: p.kind,
    symbol: p.symbol,
    protocol: p.protocol,
    ...(p.kind === "lending" && p.lendingPool ? { lendingPool: p.lendingPool.toLowerCase() as Address } : {}),
    ...(p.kind === "lending" && p.underlying?.[0] ? { underlying: p.underlying[0].toLowerCase() as Address } : {}),
    defillamaId: demoDefillamaId(p.chainId, p.address),
    merklId: demoMerklId(p.chainId, p.address),
  }));
}

/**
 * Starts a loopback HTTP server answering like DefiLlama (yields `/pools`, `/chart/{pool}`; `/overview/dexs/{chain}`)
 * and Merkl v4 (`/v4/opportunities`), in their documented shapes, describing the demo's OWN pools: deterministic
 * ids per pool ({@link demoDefillamaId}, {@link demoMerklId}), TVL/APY from `snapshot` or derived from the pool's
 * identity, a daily volume series, and one incentive campaign per pool. Everything is loopback; nothing is fetched.
 *
 * @param {@link StartFeedServerParameters}
 * @returns the three base URLs to give `runIngestionPass` as `feeds`, fault controls and `close()`.
 * @example
 * import { startFeedServer, demoPoolConfigs } from "./demo/feedServer";
 * const feeds = await startFeedServer({ pools: demo.pools });
 * await runIngestionPass({ store, pools: demoPoolConfigs(demo.pools), chains, feeds: feeds.urls, freshnessWindowS: 3600, log });
 */
export async function startFeedServer(parameters: StartFeedServerParameters): Promise<FeedServer> {
  const { pools, port = 0 } = parameters;
  const ctx: FeedContext = {
    pools,
    now: parameters.now ?? (() => Math.floor(Date.now() / 1000)),
    snapshot: parameters.snapshot,
    campaigns: parameters.campaigns,
    listed: parameters.listed ?? (() => true),
    history: parameters.history,
  };
  let delayMs = parameters.delayMs ?? 0;
  const faults: Record<FeedName, FeedFault> = {
    pools: "none",
    chart: "none",
    dexs: "none",
    merkl: "none",
    ...parameters.faults,
  };
  const requests: Record<FeedName, number> = { pools: 0, chart: 0, dexs: 0, merkl: 0 };

  const pending = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { feed, body } = routeFeed(ctx, new URL(req.url ?? "/", "http://127.0.0.1"));
    if (feed !== null && body !== null) requests[feed]++;
    // The fault is read when answering: a fault set during the delay applies.
    const answer = () => respond(res, feed === null || body === null ? null : { body, fault: faults[feed] });
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        answer();
      }, delayMs);
      pending.add(timer);
    } else answer();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: { defillamaYieldsUrl: `${base}/yields`, defillamaApiUrl: `${base}/api`, merklApiUrl: `${base}/merkl` },
    setFault(feed, fault) {
      faults[feed] = fault;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    requests,
    async close() {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with the body as the feed's fault dictates, or 404 for `null` (not a feed, or an unknown id). */
function respond(res: ServerResponse, answer: { body: unknown; fault: FeedFault } | null): void {
  if (res.destroyed) return;
  if (answer === null) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not found" }));
    return;
  }
  if (answer.body instanceof BadFeedRequest) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: answer.body.message }));
    return;
  }
  if (answer.fault === "timeout") return; // never answers; the client's timeout ends it
  if (answer.fault === "error") {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "internal error" }));
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  if (answer.fault === "garbage") res.end("<html><body>502 Bad Gateway</body></html>");
  else if (answer.fault === "invalid") res.end(JSON.stringify({ status: "success", data: [{ pool: 42 }] }));
  else res.end(JSON.stringify(answer.body));
}
