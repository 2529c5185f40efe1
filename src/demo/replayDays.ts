import type { HistoryMoment } from "../ingest/source";
import { pinnedClient } from "./pinnedClient";

export type ReplayDaysParameters = {
  /** The demo's local chains. */
  chains: readonly { chainId: number; rpcUrl: string }[];
  /** Chain time at the end of each simulated day, oldest first. */
  dayTimes: readonly number[];
  /** Ingests one day (the caller runs an ingestion pass without issuing). */
  ingest: (moment: HistoryMoment) => Promise<void>;
  /** Receives each day's time before its pass, and null once the replay is over (the feed server's clock). */
  setClock?: (time: number | null) => void;
};

/**
 * Replays the demo's history: every simulated day but the last, read at that day's last block, in order. The last
 * day is left to the first issuing pass, which reads the chains live. Days come in order, so each day's block
 * search starts from the previous day's block.
 *
 * @param {@link ReplayDaysParameters}
 */
export async function replayDays({ chains, dayTimes, ingest, setClock }: ReplayDaysParameters): Promise<void> {
  const lastBlock = new Map<number, bigint>();
  for (const [index, time] of dayTimes.slice(0, -1).entries()) {
    const pinned = await Promise.all(
      chains.map(async (chain) => {
        const { client, blockNumber } = await pinnedClient({
          chainId: chain.chainId,
          rpcUrl: chain.rpcUrl,
          time,
          from: lastBlock.get(chain.chainId) ?? 0n,
        });
        lastBlock.set(chain.chainId, blockNumber);
        return { chainId: chain.chainId, client };
      }),
    );
    setClock?.(time);
    await ingest({ label: `demo day ${index + 1}/${dayTimes.length}`, chains: pinned, time });
  }
  setClock?.(null);
}
