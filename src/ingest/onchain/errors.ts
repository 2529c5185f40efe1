import { BaseError } from "../../errors/base";

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
