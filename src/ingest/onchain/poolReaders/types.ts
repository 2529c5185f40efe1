import type { Address, PublicClient } from "viem";

/** A pool to read on chain. Lending pools are addressed by their reserve's aToken. */
export interface OnchainPoolRef {
  chainId: number;
  /** AMM: the pair. Lending: the reserve's aToken. */
  address: Address;
  kind: "amm" | "lending";
  /** Aave Pool (lending only). Read from the aToken (`POOL()`) when omitted. */
  lendingPool?: Address;
  /**
   * Underlying asset (lending only; ignored for AMM pairs, whose tokens are read from the pair). Read from the
   * aToken when omitted; a mismatch is a failure. A one-element array (a `DemoPool`'s `underlying`) is accepted.
   */
  underlying?: Address | readonly Address[];
}

/** What one pool looked like at the read's block. USD figures are null where a price is missing. */
export interface OnchainObservation {
  chainId: number;
  address: Address;
  kind: "amm" | "lending";
  /** AMM: both reserves at USD prices. Lending: equal to `exitableUsd`. */
  depthUsd: number | null;
  /** Lending: (supplied − borrowed) at the USD price. AMM: null (no exact figure exists; see `state.exit*`). */
  exitableUsd: number | null;
  /** Lending: the reserve's current liquidity rate as a percent per year (3.1 means 3.1 %). AMM: null. */
  supplyRatePercent: number | null;
  /** Raw inputs: reserves / supplied / borrowed in base units (decimal strings), decimals, prices used. */
  state: Record<string, string | number>;
}

/** What one `readPools` call read. */
export interface OnchainReadResult {
  /** The block every read was pinned to. */
  blockNumber: bigint;
  /** That block's timestamp, Unix seconds. */
  observedAt: number;
  observations: OnchainObservation[];
  failures: { address: Address; error: string }[];
  /** JSON-RPC requests this pass sent (block + one `eth_call` per multicall batch). */
  rpcRequests: number;
}

export type ReadPoolsParameters = {
  /** A viem public client for the pools' chain. */
  client: PublicClient;
  /** Pools of one chain (the client's). */
  pools: OnchainPoolRef[];
  /** USD per whole token by token address (any case). When given, no price is derived on chain. */
  prices?: Record<Address, number>;
  /**
   * Tokens valued at exactly $1 for on-chain price derivation. Default: tokens whose `symbol()` is one of
   * `USD_ANCHOR_SYMBOLS` (./uniswapV2Pairs).
   */
  usdAnchors?: Address[];
  /** Multicall3 address. Default: the canonical `0xcA11bde05977b3631167028862bE2a173976CA11` (also on the demo chains). */
  multicallAddress?: Address;
  /**
   * Use viem's deployless multicall (Multicall3's creation code in each `eth_call`) for a chain without
   * Multicall3. Slower on Hardhat's EDR for large batches. Default false.
   */
  deployless?: boolean;
  /** Calldata bytes per multicall batch (viem's `batchSize`). Default 8192. */
  batchSize?: number;
  /** Read at this block instead of the latest. */
  blockNumber?: bigint;
  /** Largest average-price shortfall for the `state.exit*` capacities, in bps. Default 200 (2 %). */
  exitSlippageBps?: number;
};

/** Records a pool that cannot be observed; the others go on. */
export type Fail = (address: Address, error: string) => void;

/** A token's USD price and where it came from (`given`, `usd-anchor`, `pair:<address>`). */
export type Price = { usd: number; source: string };

/** Round 2's token metadata: `decimals()` and `symbol()` of every token that answered. */
export type TokenMeta = { decimals: Map<Address, number>; symbols: Map<Address, string> };
