import type { ContractFunctionParameters, PublicClient } from "viem";
import { MULTICALL3_ADDRESS } from "../../../chain/multicall3Address";
import type { ReadPoolsParameters } from "./types";

/** One call's answer: its value, or the error that failed it. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** One multicall round pinned to the read's block; failed calls come back as `{ ok: false }`. */
export type Multicall = <T>(contracts: ContractFunctionParameters[]) => Promise<Outcome<T>[]>;

/** A multicall at `blockNumber` with the caller's batch size and Multicall3 (or deployless) choice. */
export function pinnedMulticall(
  client: PublicClient,
  blockNumber: bigint,
  parameters: Pick<ReadPoolsParameters, "multicallAddress" | "deployless" | "batchSize">,
): Multicall {
  const { multicallAddress = MULTICALL3_ADDRESS, deployless = false, batchSize = 8192 } = parameters;
  return async <T>(contracts: ContractFunctionParameters[]): Promise<Outcome<T>[]> => {
    if (contracts.length === 0) return [];
    const results = await client.multicall({
      contracts,
      blockNumber,
      batchSize,
      allowFailure: true,
      ...(deployless ? { deployless: true } : { multicallAddress }),
    });
    return results.map((r) =>
      r.status === "success"
        ? { ok: true, value: r.result as T }
        : { ok: false, error: (r.error as { shortMessage?: string }).shortMessage ?? String(r.error) },
    );
  };
}
