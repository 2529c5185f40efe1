import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of the pool readers (`src/read`): every surface (REST, MCP, pages) maps them (with `InvalidPoolIdError`). */

const DOCS = "docs/service.md#pool-ids";

export type PoolNotFoundErrorType = PoolNotFoundError & { name: "PoolNotFoundError" };
/** A well-formed identifier of a pool that is not tracked. */
export class PoolNotFoundError extends BaseError {
  /** The qualified id (or the bare address) asked for. */
  readonly pool: string;
  constructor({ pool }: { pool: string }) {
    super(`${pool} is not a tracked pool; GET /api/v1/pools lists them.`, {
      code: "POOL_NOT_FOUND",
      docsPath: DOCS,
      name: "PoolNotFoundError",
    });
    this.pool = pool;
  }
}

export type AmbiguousPoolErrorType = AmbiguousPoolError & { name: "AmbiguousPoolError" };
/** A bare address tracked on more than one chain: the caller must name the chain. */
export class AmbiguousPoolError extends BaseError {
  readonly candidates: string[];
  constructor({ address, candidates }: { address: string; candidates: string[] }) {
    super(`${address} is tracked on ${candidates.length} chains; name the chain, e.g. ${candidates[0]}.`, {
      code: "AMBIGUOUS_POOL",
      docsPath: DOCS,
      name: "AmbiguousPoolError",
    });
    this.candidates = candidates;
  }
}

export type NoAttestationErrorType = NoAttestationError & { name: "NoAttestationError" };
/** A tracked pool without an attestation yet, with the reason the horizon model gives. */
export class NoAttestationError extends BaseError {
  readonly pool: string;
  readonly reason: string;
  constructor({ pool, reason }: { pool: string; reason: string }) {
    super(`No attestation has been issued for ${pool} yet: ${reason}`, {
      code: "NO_ATTESTATION",
      docsPath: "docs/service.md#no-attestation",
      name: "NoAttestationError",
    });
    this.pool = pool;
    this.reason = reason;
  }
}
