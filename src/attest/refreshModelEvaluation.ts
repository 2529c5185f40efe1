import type { Kysely } from "kysely";
import { formatPoolId } from "@attestation-registry/sdk";
import {
  evaluateModelWithClaims,
  publishedClaim,
  type EvaluatedPool,
  type ModelEvaluation,
  type ScoredClaim,
} from "../model/evaluateModel";
import { DEFAULT_CANDIDATES, HORIZON_MODELS, ISSUING_MODEL } from "../model/horizon";
import { listFirstDepthsByDay } from "../storage/attestations";
import { capsDepthClaim, getCampaignsForPools } from "../storage/campaigns";
import { saveModelEvaluation } from "../storage/modelEvaluations";
import { utcDay } from "../storage/poolDaily";
import { listPools } from "../storage/pools";
import type { Database } from "../storage/schema";
import { CLAIM_FLOOR, CLAIM_TARGET } from "./issueAttestations";
import { readObservedPools } from "./observedPools";

/** The rule the issuer applies (docs/data.md#the-horizon-model), as the evaluation replays it. */
export const ISSUER_RULE = { floor: CLAIM_FLOOR, target: CLAIM_TARGET, candidates: DEFAULT_CANDIDATES } as const;

/**
 * Recomputes the walk-forward evaluation of every model version (`HORIZON_MODELS`, the issuing one among them) from the
 * store's observed daily lows up to yesterday, the depths its attestations stated and its campaign ends
 * ({@link readEvaluatedPools}), and stores each under its id, with every scored claim (by
 * pool, asOf, horizon) so that `GET /api/v1/model/claims` publishes them. The process that issues runs
 * it after each issuing pass. It reads lows and writes one row per version: no attestation, outcome or signature is
 * touched.
 *
 * @param db the store.
 * @param parameters `now`, Unix seconds (yesterday is the last complete day).
 * @returns the issuing model's evaluation.
 */
export async function refreshModelEvaluation(
  db: Kysely<Database>,
  parameters: { now: number },
): Promise<ModelEvaluation> {
  const lastDay = utcDay(parameters.now - 86_400);
  const pools = await readEvaluatedPools(db, { lastDay });
  let issuing: ModelEvaluation | null = null;
  for (const model of HORIZON_MODELS) {
    const { evaluation, scored } = evaluateModelWithClaims(pools, { ...ISSUER_RULE, model }, lastDay);
    const claims = [...scored].sort(byPoolDayHorizon).map(publishedClaim);
    await saveModelEvaluation(db, { model: model.id, computedAt: parameters.now, evaluation, claims });
    if (model === ISSUING_MODEL) issuing = evaluation;
  }
  return issuing!;
}

/** The published order of scored claims: by pool, then asOf, then horizon (code-unit order of the strings). */
function byPoolDayHorizon(a: ScoredClaim, b: ScoredClaim): number {
  if (a.pool !== b.pool) return a.pool < b.pool ? -1 : 1;
  if (a.asOf !== b.asOf) return a.asOf < b.asOf ? -1 : 1;
  return a.horizon - b.horizon;
}

/** A pool of the evaluation as {@link readEvaluatedPools} builds it. */
type PoolBuilder = EvaluatedPool & {
  daily: { day: string; minDepthUsd: number }[];
  depths: { day: string; depthUsd: number }[];
  campaignEnds: number[];
};

/**
 * Every pool with an observed daily low up to `lastDay`, as the evaluation replays what is signed: its observed lows,
 * the depth the first attestation of each day up to `lastDay` stated (`listFirstDepthsByDay`: the claim's anchor), and
 * the end times of the incentive campaigns that cap its claims (those issuance reads: matched through the pool's
 * `merkl_id`, borrow campaigns left out, `capsDepthClaim`). The store keeps campaigns, not when each was first
 * listed, so a campaign stored now caps the claims replayed on every earlier day it ends after. A few queries,
 * whatever the number of pools.
 */
export async function readEvaluatedPools(
  db: Kysely<Database>,
  parameters: { lastDay: string },
): Promise<EvaluatedPool[]> {
  const pools = new Map<string, PoolBuilder>();
  for (const { pool, daily } of await readObservedPools(db, parameters)) {
    pools.set(pool, { pool, daily, depths: [], campaignEnds: [] });
  }
  const to = Date.parse(`${parameters.lastDay}T00:00:00Z`) / 1000 + 86_400;
  for (const depth of await listFirstDepthsByDay(db, { to })) {
    pools.get(formatPoolId({ chainId: depth.chainId, address: depth.address }))?.depths.push(depth);
  }
  const withMerkl = (await listPools(db)).flatMap((record) => {
    const entry = pools.get(formatPoolId({ chainId: record.chainId, address: record.address }));
    return record.merklId === null || entry === undefined
      ? []
      : [{ entry, chainId: record.chainId, merklId: record.merklId }];
  });
  const campaigns = await getCampaignsForPools(db, withMerkl);
  withMerkl.forEach(({ entry }, i) => {
    for (const campaign of campaigns[i]) {
      if (capsDepthClaim(campaign) && campaign.endsAt !== null) entry.campaignEnds.push(campaign.endsAt);
    }
  });
  return [...pools.values()].map(({ pool, daily, depths, campaignEnds }) => ({
    pool,
    daily,
    ...(depths.length > 0 ? { depths: depths.map(({ day, depthUsd }) => ({ day, depthUsd })) } : {}),
    ...(campaignEnds.length > 0 ? { campaignEnds } : {}),
  }));
}
