import type { Address } from "viem";

/** Multicall3's canonical address (Ethereum, Arbitrum One, Base, and the demo chains). */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
