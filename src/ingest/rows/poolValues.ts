import type { PoolConfig } from "../../model/poolConfig";
import type { PoolValues } from "../../storage/pools";
import type { DefillamaPool } from "../feeds/defillamaYields";
import type { OnchainObservation } from "../onchain/readPools";

/** One pool's on-chain observation with the block it was read at. */
export interface OnchainReading {
  observation: OnchainObservation;
  /** Block number, decimal string. */
  block: string;
  /** The block's timestamp, Unix seconds. */
  observedAt: number;
}

/** Parameters of {@link poolValues}. */
export interface PoolValuesParameters {
  config: PoolConfig;
  /** This pass's on-chain reading of the pool, if any. */
  reading?: OnchainReading | undefined;
  /** The pool's DefiLlama yields entry from this pass, if any. */
  llama?: DefillamaPool | undefined;
  /** When the feeds were read, Unix seconds. */
  feedsObservedAt: number;
}

const finite = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

/**
 * The pool columns a pass has values for: the configured feed ids, then what the chain and the yields feed gave.
 * A column without a value (source failed, not configured, figure not finite) is left out, so the stored value and
 * its observed time stay as an earlier pass left them.
 *
 * @example
 * poolValues({ config, reading, llama, feedsObservedAt: 1_790_000_000 }); // { depth_usd: …, depth_observed_at: … }
 */
export function poolValues(parameters: PoolValuesParameters): PoolValues {
  const { config, reading, llama, feedsObservedAt } = parameters;
  const values: PoolValues = {};
  if (config.defillamaId !== undefined) values.defillama_id = config.defillamaId;
  if (config.merklId !== undefined) values.merkl_id = config.merklId;
  if (reading) Object.assign(values, onchainValues(reading));
  if (llama) {
    values.tvl_usd = llama.tvlUsd;
    if (llama.apy !== null && llama.apy !== undefined) values.apy_percent = llama.apy;
    values.feed_observed_at = feedsObservedAt;
    if (llama.volumeUsd1d !== null && llama.volumeUsd1d !== undefined) {
      values.volume_24h_usd = llama.volumeUsd1d;
      values.volume_observed_at = feedsObservedAt;
    }
  }
  return values;
}

/** The columns an on-chain reading sets: the raw state, and each finite figure with its observed time and block. */
function onchainValues({ observation: o, block, observedAt }: OnchainReading): PoolValues {
  const values: PoolValues = { state_json: JSON.stringify(o.state) };
  if (finite(o.depthUsd)) {
    values.depth_usd = o.depthUsd;
    values.depth_observed_at = observedAt;
    values.depth_block = block;
  }
  if (finite(o.exitableUsd)) values.exitable_usd = o.exitableUsd;
  if (finite(o.supplyRatePercent)) {
    values.supply_rate_percent = o.supplyRatePercent;
    values.supply_rate_observed_at = observedAt;
  }
  return values;
}
