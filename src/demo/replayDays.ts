import type { Address } from "viem";
import type { HistoryMoment } from "../ingest/source";
import { pinnedClient } from "./pinnedClient";

export type ReplayDaysParameters = {
  /** The demo's local chains. */
  chains: readonly { chainId: number; rpcUrl: string }[];
  /**
   * Each simulated day's end, oldest first: its time (the pass's clock) and, per chain, its last block (else the last
   * block at or before the time is searched).
   */
  days: readonly { time: number; blocks?: readonly { chainId: number; blockNumber: bigint }[] }[];
  /** Ingests one day (the caller runs an ingestion pass without issuing). */
  ingest: (moment: HistoryMoment) => Promise<void>;
  /**
   * Receives each day (index from 0, and its time) before its pass, and null once the replay is over: the feed
   * server's clock, and which pools the source reports.
   */
  setClock?: (day: { index: number; time: number } | null) => void;
  /** Per chain, a contract its endpoint stops answering for at the moment (see `silencing`); default none. */
  silenced?: (chainId: number) => Address | null;
};

/**
 * Replays the demo's history: every simulated day but the last, read at that day's last block, in order. The last
 * day is left to the first issuing pass, which reads the chains live. Days come in order, so a day's block search
 * (when its blocks are not given) starts from the previous day's block.
 *
 * @param {@link ReplayDaysParameters}
 */
export async function replayDays({ chains, days, ingest, setClock, silenced }: ReplayDaysParameters): Promise<void> {
  const lastBlock = new Map<number, bigint>();
  for (const [index, { time, blocks }] of days.slice(0, -1).entries()) {
    const pinned = await Promise.all(
      chains.map(async (chain) => {
        const { client, blockNumber } = await pinnedClient({
          chainId: chain.chainId,
          rpcUrl: chain.rpcUrl,
          blockNumber: blocks?.find((b) => b.chainId === chain.chainId)?.blockNumber,
          time,
          from: lastBlock.get(chain.chainId) ?? 0n,
          silenced: silenced && (() => silenced(chain.chainId)),
        });
        lastBlock.set(chain.chainId, blockNumber);
        return { chainId: chain.chainId, client };
      }),
    );
    setClock?.({ index, time });
    await ingest({ label: `demo day ${index + 1}/${days.length}`, chains: pinned, time });
  }
  setClock?.(null);
}
