import type { Kysely } from "kysely";
import { keccak256, stringToHex, type Address, type Hex } from "viem";
import {
  createAttestationMessage,
  formatPoolId,
  getAttestationTypedData,
  type AttestationFields,
} from "@attestation-registry/sdk";
import { isStale } from "../model/freshness";
import type { PoolConfig } from "../model/poolConfig";
import type { Calibration } from "../model/calibration";
import { computeHorizon, DEFAULT_CANDIDATES, HORIZON_MODEL_ID, ISSUING_MODEL } from "../model/horizon";
import { PooledCalibrations } from "../model/pooledCalibration";
import { dayNumber } from "../model/windowSeries";
import { appendActivity, type NewActivity } from "../storage/activity";
import {
  getLatestAttestations,
  insertAttestations,
  SUPERSEDES_NONE,
  type IssuedAttestation,
  type NewAttestation,
} from "../storage/attestations";
import { depthCapEnds, listCampaignRecordsForPools, type CampaignRecord } from "../storage/campaigns";
import { assertFence, type PassFence } from "../storage/leaderLease";
import { getDailyLowHistories, utcDay, type DailyLow } from "../storage/poolDaily";
import { getPools, setIssueVerdicts, type PoolRecord } from "../storage/pools";
import type { Database } from "../storage/schema";
import { readObservedPools } from "./observedPools";
import type { AttestationSigner } from "./signer";

/**
 * Defaults of the published claim (docs/data.md#the-horizon-model). Published in the API and docs; the v1 message
 * cannot carry them.
 */
export const CLAIM_FLOOR = 0.5;
export const CLAIM_TARGET = 0.8;

/** Parameters of {@link issueAttestations}. */
export interface IssueAttestationsParameters {
  /** The store's Kysely instance (not a transaction: the writes open their own). */
  db: Kysely<Database>;
  pools: readonly PoolConfig[];
  /** Who signs: the key in the process or a JSON-RPC signer (`./signer`); its signatures are checked before use. */
  signer: AttestationSigner;
  /** Seconds from issuedAt to expiry (`ATTESTATION_LIFETIME_S`, default 86400). */
  lifetimeS: number;
  /** When set, each attestation also gets the v2 EIP-712 block bound to this registry. */
  registry?: { chainId: number; address: Address };
  /** Unix seconds; becomes issuedAt. */
  now: number;
  /** Depth older than this is not fresh enough to anchor a claim (`FRESHNESS_WINDOW_S`). */
  freshnessWindowS: number;
  floor?: number;
  target?: number;
  log?: (line: string) => void;
  /** Checked first in the write transaction (`assertFence`): a lost lease or a stop commits nothing. */
  fence?: PassFence;
}

/** What issuance did for one pool. */
export type IssueOutcome =
  | { chainId: number; address: string; action: "issued"; horizonDays: number; confidenceHundredths: number; id: Hex }
  | { chainId: number; address: string; action: "kept"; reason: string }
  | { chainId: number; address: string; action: "none"; reason: string };

export type IssueAttestationsReturnType = IssueOutcome[];

/** The v2 block as stored and served: integers as decimal strings, `types` without `EIP712Domain`. */
function eip712Json(typedData: ReturnType<typeof getAttestationTypedData>, signature: Hex): string {
  const message = Object.fromEntries(
    Object.entries(typedData.message).map(([key, value]) => [key, typeof value === "string" ? value : String(value)]),
  );
  return JSON.stringify({
    domain: { ...typedData.domain, chainId: typedData.domain.chainId.toString() },
    types: typedData.types,
    primaryType: typedData.primaryType,
    message,
    signature,
  });
}

/** What every pool's issuance shares: the call's parameters with their defaults resolved. */
interface IssueContext extends IssueAttestationsParameters {
  floor: number;
  target: number;
  attester: Address;
  /** The UTC day of `now`: only the days before it are complete. */
  today: string;
  /**
   * The pooled calibration a pool's claim reads (`ISSUING_MODEL.pooled`): fitted on every other pool's observed
   * windows closed by yesterday. Undefined for a version that reads only the pool's own history.
   */
  calibrationOf?: (poolId: string) => Calibration[];
}

/** The pool of an outcome. */
const pick = ({ chainId, address }: IssueOutcome) => ({ chainId, address });

/** The "kept" reason of a pool whose successor attestation another pass stored first. */
const ISSUED_ELSEWHERE = "another pass issued from the same state first";

/** One pool's verdict, and the attestation to store when one was issued. */
type PoolIssuance = { outcome: IssueOutcome; attestation?: NewAttestation & { id: Hex }; symbol?: string };

/**
 * Issues attestations for the tracked pools (docs/data.md#issuance). For each pool with fresh depth and enough daily
 * history it runs the horizon model on the COMPLETED days (before today's UTC day) and signs `{chainId, confidence,
 * expiry, horizon, issuedAt, pool}` through `parameters.signer` (EIP-191, and EIP-712 for the v2 block when a registry
 * is set); a signer failure throws before anything is stored. It re-issues only when the pool's latest attestation has
 * expired or the model inputs changed (their hash is stored). Outcome is always "pending". Each
 * stored attestation gets its `attestation.issued` activity event in the same transaction. Each row names the
 * attestation it supersedes (the pool's latest when it was read): when another leader stored a successor of that
 * one first, the insert is a no-op and the pool's outcome is "kept" (no second row, event or webhook).
 *
 * @param {@link IssueAttestationsParameters}
 * @returns one {@link IssueOutcome} per pool.
 */
export async function issueAttestations(parameters: IssueAttestationsParameters): Promise<IssueAttestationsReturnType> {
  const { db, pools, signer, now } = parameters;
  const context: IssueContext = {
    ...parameters,
    floor: parameters.floor ?? CLAIM_FLOOR,
    target: parameters.target ?? CLAIM_TARGET,
    attester: signer.address,
    today: utcDay(now),
  };
  if (ISSUING_MODEL.pooled) context.calibrationOf = await pooledCalibrationsAsOf(db, context);
  const stored = await readIssueInputs(db, pools);
  const issuances: PoolIssuance[] = [];
  for (const [i, config] of pools.entries()) issuances.push(await issueForPool(context, config, stored[i]));
  // Reads and signing happen above, outside any transaction; the writes are one short transaction, so readers of
  // the store (the API) wait for a few inserts at most, never for signing.
  await db.transaction().execute(async (trx) => {
    await assertFence(trx, parameters.fence);
    // One multi-row insert and one append, whatever the number of attestations; a row another leader already
    // stored (the same successor of the same attestation) is skipped and reported "kept", with no second event.
    const signed = issuances.filter(
      (issuance): issuance is PoolIssuance & { attestation: NonNullable<PoolIssuance["attestation"]> } =>
        Boolean(issuance.attestation),
    );
    const inserted = await insertAttestations(
      trx,
      signed.map(({ attestation }) => attestation),
    );
    for (const issuance of signed) {
      if (!inserted.has(issuance.attestation.id)) {
        issuance.outcome = { ...pick(issuance.outcome), action: "kept", reason: ISSUED_ELSEWHERE };
      }
    }
    const events = signed
      .filter(({ attestation }) => inserted.has(attestation.id))
      .map(({ attestation, symbol }) => issuedEvent(attestation, symbol ?? ""));
    if (events.length > 0) await appendActivity(trx, events);
    await setIssueVerdicts(
      trx,
      issuances.map(({ outcome: { chainId, address, ...outcome } }) => {
        const reason = outcome.action === "none" ? outcome.reason : null;
        return { chainId, address, reason, checkedAt: now };
      }),
    );
  });
  return issuances.map(({ outcome }) => outcome);
}

/**
 * The pooled calibration of each pool's claim, as the walk-forward evaluation replays it (`PooledCalibrations`): every
 * tracked pool's observed windows closed by yesterday (the last complete day), less the pool's own. One query and one
 * count of all pools' windows per pass, whatever the number of pools.
 */
async function pooledCalibrationsAsOf(
  db: Kysely<Database>,
  context: IssueContext,
): Promise<(poolId: string) => Calibration[]> {
  const lastDay = utcDay(context.now - 86_400);
  const observed = await readObservedPools(db, { lastDay });
  const pooled = new PooledCalibrations(
    observed,
    { floor: context.floor, candidates: DEFAULT_CANDIDATES, model: ISSUING_MODEL },
    lastDay,
  );
  return (poolId) => pooled.forPool(poolId)(dayNumber(lastDay));
}

/** What issuance reads from the store for one pool. */
interface StoredIssueInputs {
  pool: PoolRecord | undefined;
  /** Every stored day, oldest first. */
  history: DailyLow[];
  /** The campaigns of the pool's Merkl opportunity (none without a `merklId`). */
  campaigns: CampaignRecord[];
  latest: IssuedAttestation | undefined;
}

/**
 * Issuance's store reads for every pool at once, in the order given: a few queries per chain (pool rows, daily
 * histories, latest attestations) and one for the campaigns, whatever the number of pools.
 */
async function readIssueInputs(db: Kysely<Database>, pools: readonly PoolConfig[]): Promise<StoredIssueInputs[]> {
  const records = await getPools(db, pools);
  const histories = await getDailyLowHistories(db, pools);
  const withMerkl = pools.flatMap((p) => (p.merklId ? [{ chainId: p.chainId, merklId: p.merklId }] : []));
  const campaignLists = await listCampaignRecordsForPools(db, withMerkl);
  const latest = await getLatestAttestations(db, pools);
  let next = 0;
  return pools.map((config, i) => ({
    pool: records[i],
    history: histories[i],
    campaigns: config.merklId ? campaignLists[next++] : [],
    latest: latest[i],
  }));
}

/** One pool: no fresh depth or no horizon → "none"; unexpired with the same inputs → "kept"; else a signed claim. */
async function issueForPool(
  context: IssueContext,
  config: PoolConfig,
  stored: StoredIssueInputs,
): Promise<PoolIssuance> {
  const { now, freshnessWindowS, floor, target, today } = context;
  const { chainId, address } = config;
  const { pool } = stored;
  if (
    !pool ||
    pool.depthUsd === null ||
    isStale({ observedAt: pool.depthObservedAt, now, windowS: freshnessWindowS })
  ) {
    return { outcome: { chainId, address, action: "none", reason: "no fresh depth observation" } };
  }
  const history = stored.history.filter((low) => low.day < today);
  const daily = history.map((low) => ({ day: low.day, minDepthUsd: low.lowestDepthUsd }));
  const futureEnds = depthCapEnds(stored.campaigns, now);
  const calibration = context.calibrationOf?.(formatPoolId({ chainId, address }));
  const result = computeHorizon({
    daily,
    depthNow: pool.depthUsd,
    floor,
    target,
    campaignEnds: futureEnds,
    now,
    calibration,
  });
  if (result.horizonDays === null || result.confidence === null) {
    return { outcome: { chainId, address, action: "none", reason: result.reason ?? "no horizon met the target" } };
  }
  const inputsHash = modelInputsHash({ floor, target, chainId, address, daily, campaignEnds: futureEnds, calibration });
  const previous = stored.latest;
  if (previous && previous.expiry > now && previous.inputsHash === inputsHash) {
    const reason = "previous attestation unexpired and inputs unchanged";
    return { outcome: { chainId, address, action: "kept", reason } };
  }
  const { horizonDays, confidence } = result;
  const attestation = await signedAttestation(context, {
    chainId,
    address,
    supersedes: previous?.id ?? SUPERSEDES_NONE,
    inputsHash,
    horizonDays,
    confidence,
    depthUsd: pool.depthUsd,
  });
  context.log?.(`issued ${chainId}:${address} horizon ${horizonDays}d confidence ${confidence / 100}`);
  const outcome: IssueOutcome = {
    chainId,
    address,
    action: "issued",
    horizonDays,
    confidenceHundredths: confidence,
    id: attestation.id,
  };
  return { outcome, attestation, symbol: config.symbol };
}

/**
 * The `attestation.issued` activity event of a stored attestation (appended in the transaction that inserts it).
 * Data: `poolId` (CAIP-10), `attestationId` (the row id), `horizon` (days), `confidence` (0–1, two digits),
 * `expiry` and `issuedAt` (Unix seconds).
 */
function issuedEvent(attestation: NewAttestation, symbol: string): NewActivity {
  const { chainId, address } = attestation;
  const poolId = formatPoolId({ chainId, address });
  const confidence = attestation.confidenceHundredths / 100;
  return {
    kind: "attestation.issued",
    at: attestation.issuedAt,
    pool: { chainId, address },
    summary:
      `Attestation issued for ${symbol ? `${symbol} ` : ""}${poolId}: horizon ${attestation.horizonDays} days, ` +
      `confidence ${confidence.toFixed(2)}, expires ${new Date(attestation.expiry * 1000).toISOString()}`,
    data: {
      poolId,
      attestationId: attestation.id,
      horizon: attestation.horizonDays,
      confidence,
      expiry: attestation.expiry,
      issuedAt: attestation.issuedAt,
    },
  };
}

/** The hash of everything the claim was computed from: an unexpired attestation with the same hash is kept. */
function modelInputsHash(inputs: {
  floor: number;
  target: number;
  chainId: number;
  address: string;
  daily: { day: string; minDepthUsd: number }[];
  campaignEnds: number[];
  calibration?: readonly Calibration[];
}): Hex {
  return keccak256(
    stringToHex(
      JSON.stringify({
        model: HORIZON_MODEL_ID,
        floor: inputs.floor,
        target: inputs.target,
        candidates: DEFAULT_CANDIDATES,
        chainId: inputs.chainId,
        pool: inputs.address.toLowerCase(),
        daily: inputs.daily.map((d) => [d.day, d.minDepthUsd]),
        campaignEnds: inputs.campaignEnds,
        // Other pools' windows move a pooled confidence: a changed calibration is a changed input.
        ...(inputs.calibration === undefined
          ? {}
          : { calibration: inputs.calibration.map((c) => [c.horizonDays, c.probabilities]) }),
      }),
    ),
  );
}

/** Signs the claim (v1, and the v2 EIP-712 block when a registry is set) and builds the attestation to store. */
async function signedAttestation(
  context: IssueContext,
  claim: {
    chainId: number;
    address: string;
    supersedes: string;
    inputsHash: Hex;
    horizonDays: number;
    confidence: number;
    depthUsd: number;
  },
): Promise<NewAttestation & { id: Hex }> {
  const { signer, registry, now, lifetimeS, floor, attester } = context;
  const { chainId, address } = claim;
  const attestation: AttestationFields = {
    chainId,
    confidence: claim.confidence / 100,
    expiry: now + lifetimeS,
    horizon: claim.horizonDays,
    issuedAt: now,
    pool: address.toLowerCase(),
  };
  const canonical = createAttestationMessage({ attestation });
  const signature = await signer.signAttestation(attestation);
  let eip712: string | null = null;
  if (registry) {
    const typedData = getAttestationTypedData({ attestation, registry });
    eip712 = eip712Json(typedData, await signer.signTypedAttestation(attestation, registry));
  }
  return {
    id: keccak256(stringToHex(canonical)),
    chainId,
    address: address.toLowerCase(),
    issuedAt: now,
    expiry: now + lifetimeS,
    horizonDays: claim.horizonDays,
    confidenceHundredths: claim.confidence,
    canonical,
    signature,
    attester: attester.toLowerCase(),
    floor,
    depthAtIssuanceUsd: claim.depthUsd,
    model: HORIZON_MODEL_ID,
    inputsHash: claim.inputsHash,
    eip712Json: eip712,
    createdAt: now,
    supersedes: claim.supersedes,
  };
}
