import { InvalidCursorError } from "../errors/market";
import type { PublishedClaim } from "../model/evaluateModel";
import { HORIZON_MODEL_ID } from "../model/horizon";
import { findModelClaims } from "../storage/modelEvaluations";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { ModelClaimsSchema } from "./schemas/modelClaims";
import { decodeModelClaimsCursor, encodeModelClaimsCursor } from "./internal/modelClaimsCursor";

/** Scored claims per page. */
export const MODEL_CLAIMS_PAGE_SIZE = 500;

export type GetModelClaimsParameters = {
  /** The `next` of the previous page, unchanged; null or omitted for the first page. */
  cursor?: string | null;
};

export type GetModelClaimsReturnType = {
  /** The model that issues attestations now, whose latest stored evaluation these claims are. */
  model: string;
  /** Unix seconds: when that evaluation was computed, or null before the first issuing pass stored its claims. */
  computedAt: number | null;
  /** Every scored claim of the evaluation, over all pages (the evaluation's `scored`). */
  scored: number;
  /** This page's claims, by pool, then asOf, then horizon. */
  claims: PublishedClaim[];
  /** The cursor of the next page; null on the last. */
  next: string | null;
};

/**
 * Every scored claim of the issuing model's latest stored evaluation, a page of {@link MODEL_CLAIMS_PAGE_SIZE} at a
 * time, by pool, then asOf, then horizon: together, the pages are the claims the published Brier score is the mean
 * of ((confidence − outcome)², outcome 1 when held), so anyone recomputes it exactly from what is published.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @param parameters {@link GetModelClaimsParameters}
 * @returns {@link GetModelClaimsReturnType}
 * @throws `InvalidCursorError` for a cursor this service did not hand out, or one of an evaluation since recomputed.
 */
export async function getModelClaims(
  { db }: Pick<ReadContext, "db">,
  { cursor = null }: GetModelClaimsParameters = {},
): Promise<GetModelClaimsReturnType> {
  const position = cursor === null || cursor === undefined ? null : decodeModelClaimsCursor(cursor);
  const row = await findModelClaims(db, HORIZON_MODEL_ID);
  if (row === undefined || row.claims_json === null) {
    if (position !== null) throw new InvalidCursorError({ stale: true });
    return { model: HORIZON_MODEL_ID, computedAt: null, scored: 0, claims: [], next: null };
  }
  const computedAt = Number(row.computed_at);
  const all = JSON.parse(row.claims_json) as PublishedClaim[];
  const offset = position?.offset ?? 0;
  if (position !== null && position.computedAt !== computedAt) throw new InvalidCursorError({ stale: true });
  // Only the start of a page, within the claims, is a cursor this service handed out.
  if (position !== null && (offset % MODEL_CLAIMS_PAGE_SIZE !== 0 || offset >= all.length)) {
    throw new InvalidCursorError();
  }
  const end = offset + MODEL_CLAIMS_PAGE_SIZE;
  return {
    model: HORIZON_MODEL_ID,
    computedAt,
    scored: all.length,
    claims: all.slice(offset, end),
    next: end < all.length ? encodeModelClaimsCursor(computedAt, end) : null,
  };
}

/** The surface, declared once: `GET /api/v1/model/claims` and the MCP tool `get_model_claims` are derived from it. */
export const surface = defineSurface({
  title: "Every scored claim of the model evaluation",
  label: "Model claims",
  description: [
    "Every scored claim of the issuing model's latest walk-forward evaluation (get_model_evaluation), 500 a page:",
    "model, computedAt (null before the first issuing pass), scored (claims over all pages), claims by pool, then",
    "asOf, then horizon (pool, asOf, horizon, confidence, floorUsd and outcome: held or failed), next. Over",
    "all pages the evaluation's brier is the mean of (confidence − outcome)², outcome 1 when held, rounded to 6",
    "decimals. Pass `next` back as `cursor`, unchanged, until it is null. Errors: INVALID_CURSOR (a cursor this",
    "service did not hand out, or one of an evaluation recomputed since: start again).",
  ].join(" "),
  parameters: { cursor: { kind: "cursor" } },
  tags: ["market"],
  output: ModelClaimsSchema,
  outputTitle: "ModelClaims",
  errors: [400, 429, 500, 503],
  cacheKey: "model-claims",
  read: (context, { cursor }) => getModelClaims(context, { cursor }),
});
