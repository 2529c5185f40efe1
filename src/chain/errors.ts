import { BaseError } from "../errors/base";

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
