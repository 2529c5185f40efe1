import { PoolNotFoundError } from "../errors/poolLookup";
import { listPoolClaims } from "../storage/accuracyRecords";
import { getPoolRecord } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { PoolClaimsSchema } from "./schemas/accuracy";
import { gradedClaim, type GradedClaim } from "./internal/gradedClaim";
import { signedAttestation, type SignedAttestation } from "./getPoolAttestation";
import { claimTerms } from "./internal/claimTerms";
import { decodePoolClaimsCursor, encodePoolClaimsCursor } from "./internal/poolClaimsCursor";
import { resolvePool } from "./resolvePool";

/** Claims per page. */
export const POOL_CLAIMS_PAGE_SIZE = 100;

export type GetPoolClaimsParameters = {
  /** The pool, in any of the three id shapes. */
  id: string;
  /** The `next` of the previous page, unchanged; null or omitted for the first page. */
  cursor?: string | null;
};

/** A claim of the pool: its terms, its grade ("pending" until graded) and the attestation that signed it. */
export type PoolClaim = Omit<GradedClaim, "pool" | "outcome"> & {
  outcome: "pending" | GradedClaim["outcome"];
  attestation: SignedAttestation;
};

export type GetPoolClaimsReturnType = {
  /** `eip155:<chainId>:<address>`. */
  pool: string;
  /** Newest first. */
  claims: PoolClaim[];
  next: string | null;
};

/**
 * A pool's claims, newest first, {@link POOL_CLAIMS_PAGE_SIZE} a page: the first attestation of each UTC day (the
 * unit the accuracy record grades), its grade or "pending", and the attestation exactly as signed, so anyone checks
 * the signature and recomputes the grade from `GET /api/v1/pool/{pool}/history` (`attest grade`).
 *
 * @param context the {@link ReadContext}.
 * @param parameters {@link GetPoolClaimsParameters}
 * @returns {@link GetPoolClaimsReturnType}
 * @throws `InvalidPoolIdError`, `PoolNotFoundError`, `AmbiguousPoolError` (see `resolvePool`), and
 * `InvalidCursorError` for a cursor this service did not hand out.
 */
export async function getPoolClaims(
  context: ReadContext,
  { id, cursor = null }: GetPoolClaimsParameters,
): Promise<GetPoolClaimsReturnType> {
  const before = cursor === null || cursor === undefined ? undefined : decodePoolClaimsCursor(cursor);
  const resolved = await resolvePool(context, { id });
  const pool = await getPoolRecord(context.db, resolved.chainId, resolved.address);
  if (!pool) throw new PoolNotFoundError({ pool: resolved.id });
  const rows = await listPoolClaims(context.db, {
    chainId: resolved.chainId,
    address: resolved.address,
    before,
    limit: POOL_CLAIMS_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, POOL_CLAIMS_PAGE_SIZE);
  const claims = page.map(({ attestation, record }): PoolClaim => {
    const terms = claimTerms(attestation);
    const graded = record === null ? null : gradedClaim(record);
    return {
      issuedAt: terms.issuedAt,
      horizon: terms.horizon,
      confidence: terms.confidence,
      floorUsd: terms.floorUsd,
      settlesAt: terms.settlesAt,
      outcome: graded?.outcome ?? "pending",
      lowestDepthUsd: graded?.lowestDepthUsd ?? null,
      lowestDepthDate: graded?.lowestDepthDate ?? null,
      attestation: signedAttestation(attestation),
    };
  });
  const last = page.at(-1);
  return {
    pool: resolved.id,
    claims,
    next: rows.length > POOL_CLAIMS_PAGE_SIZE && last ? encodePoolClaimsCursor(last.attestation.issuedAt) : null,
  };
}

/** The surface, declared once: `GET /api/v1/pool/{pool}/claims` and the MCP tool `get_pool_claims` are derived from it. */
export const surface = defineSurface({
  title: "A pool's claims and their grades",
  label: "A pool's claims",
  description: [
    "A pool's track record: its first attestation of each UTC day (the graded claim), newest first, 100 a page,",
    "each with issuedAt, horizon (days), confidence (0 to 1), floorUsd, settlesAt (Unix seconds), outcome (pending",
    "until its window closed and the leader graded it; then held, failed or void, never changed), lowestDepthUsd",
    "and lowestDepthDate (the low that decided it), and the attestation exactly as signed (verify it with",
    "verify_attestation). Pass `next` back as `cursor`, unchanged, until it is null. Errors: INVALID_POOL_ID,",
    "POOL_NOT_FOUND, AMBIGUOUS_POOL, INVALID_CURSOR. `attest grade` recomputes every outcome from the history.",
  ].join(" "),
  parameters: { pool: { kind: "pool" }, cursor: { kind: "cursor" } },
  tags: ["attestations"],
  output: PoolClaimsSchema,
  outputTitle: "PoolClaims",
  errors: [400, 404, 409, 429, 500],
  cacheKey: "pool-claims",
  read: (context, { pool, cursor }) => getPoolClaims(context, { id: pool, cursor }),
});
