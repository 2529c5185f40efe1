import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of the chains: local chains and the demo's contracts (`src/chain`, `src/demo`), and on-chain reads. */

/** A local chain could not be started or answered unexpectedly. */
export class LocalChainError extends BaseError {
  override name = "LocalChainError";
  constructor(shortMessage: string, args: { cause?: Error; metaMessages?: string[] } = {}) {
    super(shortMessage, { ...args, code: "LOCAL_CHAIN_ERROR", docsPath: "docs/demo-chains.md" });
  }
}

/** Deploying or driving the demo's contracts failed. */
export class DemoChainError extends BaseError {
  override name = "DemoChainError";
  constructor(shortMessage: string, args: { cause?: Error; metaMessages?: string[] } = {}) {
    super(shortMessage, { ...args, code: "DEMO_CHAIN_ERROR", docsPath: "docs/demo-chains.md" });
  }
}

/** Bad input to the constant-product arithmetic (`pairMath.ts`). */
export class PairMathError extends BaseError {
  override name = "PairMathError";
  constructor(shortMessage: string, args: { metaMessages?: string[] } = {}) {
    super(shortMessage, { ...args, code: "PAIR_MATH_INVALID", docsPath: "docs/demo-chains.md#exit-capacity" });
  }
}

/** Bad input to `readPools` (not a failure of one pool's read, which is reported in `failures`). */
export class ReadPoolsError extends BaseError {
  override name = "ReadPoolsError";
  constructor(shortMessage: string, args: { cause?: Error; metaMessages?: string[] } = {}) {
    super(shortMessage, { ...args, code: "READ_POOLS_INVALID", docsPath: "docs/demo-chains.md#on-chain-reads" });
  }
}
