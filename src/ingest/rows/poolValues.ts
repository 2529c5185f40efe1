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
  /**
   * When the USD figures (depth, exitable) were valued: the older of the block's time and the timestamps of the
   * prices used (`priceReading`). Default `observedAt` (prices derived on chain at the same block).
   */
  valuedAt?: number;
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
  /** This pass's 24 h swap volume of an AMM pool and its observed time, when its logs were read up to the pinned block. */
  volume?: { usd: number; observedAt: number } | undefined;
}

const finite = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

/**
 * The pool columns a pass has values for: the configured feed ids, then what the chain, the swap logs and the yields
 * feed gave. A column without a value (source failed, not configured, figure not finite) is left out, so the stored
 * value and its observed time stay as an earlier pass left them. Each dimension carries its own time:
 * `depth_observed_at` and `exitable_observed_at` (the reading's `valuedAt`), `supply_rate_observed_at` (the block's
 * time), `volume_observed_at`, and `apy_observed_at` (only when the feed's row has an `apy`). The feed's own
 * `volumeUsd1d` is not used: volume comes from the pool's `Swap` logs.
 *
 * @example
 * poolValues({ config, reading, llama, feedsObservedAt: 1_790_000_000 }); // { depth_usd: …, depth_observed_at: … }
 */
export function poolValues(parameters: PoolValuesParameters): PoolValues {
  const { config, reading, llama, feedsObservedAt, volume } = parameters;
  const values: PoolValues = {};
  if (config.defillamaId !== undefined) values.defillama_id = config.defillamaId;
  if (config.merklId !== undefined) values.merkl_id = config.merklId;
  if (reading) Object.assign(values, onchainValues(reading));
  if (volume && config.kind === "amm" && finite(volume.usd)) {
    values.volume_24h_usd = volume.usd;
    values.volume_observed_at = volume.observedAt;
  }
  if (llama) {
    values.tvl_usd = llama.tvlUsd;
    values.feed_observed_at = feedsObservedAt;
    if (finite(llama.apy)) {
      values.apy_percent = llama.apy;
      values.apy_observed_at = feedsObservedAt;
      // The split, from the same row (so it never outlives the sum it splits); null when the row lacks a part.
      values.apy_base_percent = finite(llama.apyBase) ? llama.apyBase : null;
      values.apy_reward_percent = finite(llama.apyReward) ? llama.apyReward : null;
    }
  }
  return values;
}

/** The columns an on-chain reading sets: the raw state, and each finite figure with its observed time and block. */
function onchainValues({ observation: o, block, observedAt, valuedAt = observedAt }: OnchainReading): PoolValues {
  const values: PoolValues = { state_json: JSON.stringify(o.state) };
  if (finite(o.depthUsd)) {
    values.depth_usd = o.depthUsd;
    values.depth_observed_at = valuedAt;
    values.depth_block = block;
  }
  if (o.kind === "lending" && finite(o.exitableUsd)) {
    values.exitable_usd = o.exitableUsd;
    values.exitable_observed_at = valuedAt;
  }
  if (finite(o.supplyRatePercent)) {
    values.supply_rate_percent = o.supplyRatePercent;
    values.supply_rate_observed_at = observedAt;
  }
  return values;
}
