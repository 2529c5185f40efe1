import type { Address, PublicClient } from "viem";
import type { PoolConfig } from "../model/poolConfig";
import type { FeedUrls } from "./runIngestionPass";

/** One viem public client per chain the pools are on. */
export type ChainClients = readonly { chainId: number; client: PublicClient }[];

/**
 * One moment of history to ingest (issued at only when the source says so: {@link IngestSource.issuesAlongHistory}),
 * handed out by {@link IngestSource.replayHistory}.
 */
export interface HistoryMoment {
  /** For the log, e.g. `demo day 3/16`. */
  label: string;
  /** Clients that read the chains as they were at that moment. */
  chains: ChainClients;
  /** The moment, Unix seconds: the pass's clock. */
  time: number;
}

/**
 * Where ingestion reads from: what the process root (`src/main`) needs to run ingestion passes. Implemented twice:
 * the configured deployment (`src/main/configuredSource.ts`: POOLS_FILE, RPC_URL_<chainId>, the configured feeds)
 * and the demo (`src/demo/demoSource.ts`: local chains with simulated history and a loopback feed server).
 */
export interface IngestSource {
  /** The tracked pools. */
  pools: readonly PoolConfig[];
  /** Clients for the live chains (every pass but the replayed history reads through them). */
  chains: ChainClients;
  /** Feed base URLs; a feed without one is not read. */
  feeds: FeedUrls;
  /** The AttestationRegistry that v2 attestations name, if any (the demo deploys its own). */
  registry: { chainId: number; address: Address } | null;
  /**
   * Unix seconds: retention keeps every run and attestation from this moment on, whatever `RETENTION_DAYS` says
   * (the demo's simulated history starts months back: its replayed passes are its record, not old data). Unset for a
   * configured deployment.
   */
  keepSince?: number;
  /** Local chains the source started, for the log (the demo's); empty for a configured deployment. */
  localChains: readonly { chainId: number; rpcUrl: string }[];
  /**
   * Ingests the source's history before the first issuing pass: calls `ingest` once per moment, oldest first, and
   * waits for each. Demo: every simulated day but the last, read at that day's last block.
   */
  replayHistory?(ingest: (moment: HistoryMoment) => Promise<void>): Promise<void>;
  /**
   * Whether each replayed moment also issues (signed at the moment's time) and grades, as a live pass would have then.
   * The demo's simulated history does, so a fresh demo has a record of past claims to grade; a real deployment never
   * back-dates a claim (unset).
   */
  issuesAlongHistory?: boolean;
  /** Awaited before every pass on the live chains (not before the replayed history). Demo: advances chain clocks. */
  beforePass?(): Promise<void>;
  /** Awaited after every pass, the replayed history included. Demo: feeds the measured depth to its feed server. */
  afterPass?(): Promise<void>;
  /** Stops whatever the source started (nothing is left running). */
  stop(): Promise<void>;
}
