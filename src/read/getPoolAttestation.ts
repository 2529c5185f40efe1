import { getAddress } from "viem";
import { NoAttestationError, PoolNotFoundError } from "../errors/poolLookup";
import { getAccuracyRecords } from "../storage/accuracyRecords";
import { getLatestStoredAttestation, type StoredAttestation } from "../storage/attestations";
import { getPoolRecord, type PoolRecord } from "../storage/pools";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { claimTerms } from "./internal/claimTerms";
import { explainNoAttestation } from "./internal/explainNoAttestation";
import { getClaimEvidence, type ClaimEvidence } from "./internal/getClaimEvidence";
import { resolvePool } from "./resolvePool";
import { AttestationSchema } from "./schemas/attestation";
import { PIN_ATTESTER, UNITS } from "./sentences";

export type GetPoolAttestationParameters = {
  /** The pool, in any of the three id shapes. */
  id: string;
};

/** The attestation as every surface serves it: spec §2.1 fields first, then the v2 block, the claim, the evidence. */
export type GetPoolAttestationReturnType = {
  chainId: number;
  confidence: number;
  expiry: number;
  horizon: number;
  issuedAt: number;
  pool: string;
  signature: string;
  /** Informational only: never use it as the expected signer. */
  attester: string;
  symbol: string;
  protocol: string;
  outcome: string;
  eip712?: unknown;
  claim: {
    statement: string;
    floor: number;
    depthAtIssuanceUsd: number;
    thresholdUsd: number;
    model: string;
    /** Unix seconds: issuedAt + horizon days, when the window closes. */
    settlesAt: number;
    /** The lowest depth observed inside the claim's own window so far (evidence only), and its UTC day. */
    lowestDepthUsd: number | null;
    lowestDepthDate: string | null;
    daysObserved: number;
  };
  evidence: ClaimEvidence;
};

/**
 * A pool's latest pre-signed attestation, exactly as the ingestion pass stored it (nothing here signs), with the
 * claim it makes and the evidence observed inside the claim's window so far.
 *
 * @param context the {@link ReadContext}.
 * @param {@link GetPoolAttestationParameters}
 * @returns {@link GetPoolAttestationReturnType}
 * @throws `InvalidPoolIdError`, `PoolNotFoundError`, `AmbiguousPoolError` (see `resolvePool`), and
 * {@link NoAttestationError} with the reason for a tracked pool that has none yet.
 * @example
 * import { getPoolAttestation } from "./read/getPoolAttestation";
 * const attestation = await getPoolAttestation(context, { id: "eip155:8453:0x67ff…" });
 */
export async function getPoolAttestation(
  context: ReadContext,
  { id }: GetPoolAttestationParameters,
): Promise<GetPoolAttestationReturnType> {
  const resolved = await resolvePool(context, { id });
  const pool = await getPoolRecord(context.db, resolved.chainId, resolved.address);
  if (!pool) throw new PoolNotFoundError({ pool: resolved.id });
  const row = await getLatestStoredAttestation(context.db, resolved.chainId, resolved.address);
  if (!row) throw new NoAttestationError({ pool: resolved.id, reason: await explainNoAttestation(context, pool) });
  const record = (await getAccuracyRecords(context.db, [row.id])).get(row.id);
  return toAttestationBody(pool, row, await getClaimEvidence(context, row), record?.outcome ?? "pending");
}

/** The attestation exactly as signed: the v1 fields (from the stored canonical message), its signature and signer. */
export type SignedAttestation = Pick<
  GetPoolAttestationReturnType,
  "chainId" | "confidence" | "expiry" | "horizon" | "issuedAt" | "pool" | "signature" | "attester" | "eip712"
>;

/**
 * The signed part of a stored attestation: the v1 fields taken from the stored canonical message (so they
 * re-canonicalise byte for byte), the signature, the signer and the v2 block when stored. What a verifier needs.
 */
export function signedAttestation(row: StoredAttestation): SignedAttestation {
  const signed = JSON.parse(row.canonical) as Record<string, string>;
  const eip712 = row.eip712Json === null ? undefined : (JSON.parse(row.eip712Json) as unknown);
  return {
    chainId: Number(signed.chainId),
    confidence: Number(signed.confidence),
    expiry: Number(signed.expiresAt),
    horizon: Number(signed.horizonDays),
    issuedAt: Number(signed.issuedAt),
    pool: signed.pool,
    signature: row.signature,
    attester: getAddress(row.attester.toLowerCase()),
    ...(eip712 === undefined ? {} : { eip712 }),
  };
}

/**
 * The v1 fields exactly as signed ({@link signedAttestation}), the convenience fields, the outcome (its grade, or
 * "pending"), the v2 block when stored, then the claim and its evidence.
 */
function toAttestationBody(
  pool: PoolRecord,
  row: StoredAttestation,
  evidence: ClaimEvidence,
  outcome: string,
): GetPoolAttestationReturnType {
  const { eip712, ...signed } = signedAttestation(row);
  const { depthAtIssuanceUsd, floor } = row;
  return {
    ...signed,
    symbol: pool.symbol,
    protocol: pool.protocol,
    outcome,
    ...(eip712 === undefined ? {} : { eip712 }),
    claim: {
      statement: `depth stays at or above floor × depthAtIssuanceUsd for ${signed.horizon} days`,
      floor,
      depthAtIssuanceUsd,
      thresholdUsd: claimTerms(row).floorUsd,
      model: row.model,
      settlesAt: evidence.windowEnd,
      lowestDepthUsd: evidence.lowestDepthUsd,
      lowestDepthDate: evidence.lowestDepthDay,
      daysObserved: evidence.daysObserved,
    },
    evidence,
  };
}

/** The surface, declared once: `GET /api/v1/pool/{pool}` and the MCP tool `get_attestation` are derived from it. */
export const surface = defineSurface({
  title: "Get a pool's signed attestation",
  label: "Get a pool's signed attestation",
  description: [
    "The latest signed attestation of one pool, exactly as the service stored it (it never re-signs). Signed",
    "(EIP-191 over a canonical JSON message): chainId, confidence (0 to 1, two decimals), expiry and issuedAt (Unix",
    "seconds), horizon (days), pool (lower-case address); `signature` is 65 bytes hex. Not signed: symbol,",
    "protocol, attester (informational only), outcome (always pending), the optional eip712 block (v2, for the",
    "on-chain AttestationRegistry), the claim (depth stays at or above floor × depthAtIssuanceUsd for `horizon`",
    `days) and the evidence observed inside the claim's window so far. ${UNITS} ${PIN_ATTESTER}`,
    "Pass the whole object to verify_attestation, or verify it offline (`npx attest verify --attester <pinned>`).",
    "Errors: INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL (a bare address on several chains: name the chain),",
    "NO_ATTESTATION (with the reason).",
  ].join(" "),
  parameters: { pool: { kind: "pool" } },
  tags: ["attestations"],
  output: AttestationSchema,
  outputTitle: "Attestation",
  errors: [400, 404, 409, 429, 500],
  cacheKey: "pool",
  read: (context, { pool }) => getPoolAttestation(context, { id: pool }),
});
