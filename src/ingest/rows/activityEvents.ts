import { formatPoolId } from "@attestation-registry/sdk";
import type { RegistryEventName } from "../../model/activityKinds";
import type { PoolConfig } from "../../model/poolConfig";
import type { NewActivity } from "../../storage/activity";
import type { CampaignAnnouncementKind } from "../../storage/campaignAnnouncements";
import type { ObservedCampaign } from "../../storage/campaigns";
import type { SourceReport } from "../../storage/ingestRuns";

const iso = (time: number) => new Date(time * 1000).toISOString().replace(".000Z", "Z");

/** Parameters of {@link ingestPassEvent}. */
export interface IngestPassEventParameters {
  runId: string;
  /** The `INSTANCE_ID` of the process that ran the pass (null for a run from before instance ids). */
  instance: string | null;
  status: "ok" | "partial" | "failed";
  startedAt: number;
  finishedAt: number;
  sources: Readonly<Record<string, SourceReport>>;
  /** Pools observed on chain; absent for a pass closed as interrupted. */
  observedPools?: number;
  /** Attestations issued. */
  issued?: number;
}

/**
 * `ingest.pass`: a pass finished (appended with its final status in `ingest_runs`). Data: `runId`, `instance` (the
 * `INSTANCE_ID` that ran it, or null), `status`, `startedAt`, `finishedAt`, `sources` (per source
 * `{ok, rows?, error?}`), `observedPools` and `issued` (absent when the pass was closed as interrupted).
 */
export function ingestPassEvent(parameters: IngestPassEventParameters): NewActivity {
  const { runId, instance, status, startedAt, finishedAt, sources, observedPools, issued } = parameters;
  const failing = Object.entries(sources)
    .filter(([, report]) => !report.ok)
    .map(([name]) => name);
  const parts = [
    `Ingestion pass ${status}`,
    ...(observedPools !== undefined ? [`${observedPools} pool(s) observed on chain`] : []),
    ...(issued !== undefined ? [`${issued} attestation(s) issued`] : []),
    ...(failing.length > 0 ? [`failing: ${failing.join(", ")}`] : []),
  ];
  return {
    kind: "ingest.pass",
    at: finishedAt,
    pool: null,
    summary: parts.join(", "),
    data: {
      runId,
      instance,
      status,
      startedAt,
      finishedAt,
      sources,
      ...(observedPools !== undefined ? { observedPools } : {}),
      ...(issued !== undefined ? { issued } : {}),
    },
  };
}

/**
 * `pool.stale` / `pool.fresh`: a pool's depth crossed the freshness window, as seen by a pass at `now`. Data:
 * `poolId`, `field` (`"depthUsd"`), `observedAt` (the depth's observation time, null if never observed),
 * `freshnessWindowS`.
 */
export function poolFreshnessEvent(parameters: {
  config: PoolConfig;
  state: "fresh" | "stale";
  depthObservedAt: number | null;
  now: number;
  freshnessWindowS: number;
}): NewActivity {
  const { config, state, depthObservedAt, now, freshnessWindowS } = parameters;
  const poolId = formatPoolId({ chainId: config.chainId, address: config.address });
  const seen = depthObservedAt === null ? "never observed" : `last observed ${iso(depthObservedAt)}`;
  return {
    kind: `pool.${state}`,
    at: now,
    pool: { chainId: config.chainId, address: config.address },
    summary:
      state === "stale"
        ? `${config.symbol} (${poolId}) depth turned stale: ${seen}, older than ${freshnessWindowS} s`
        : `${config.symbol} (${poolId}) depth is fresh again: observed ${iso(depthObservedAt ?? now)}`,
    data: { poolId, field: "depthUsd", observedAt: depthObservedAt, freshnessWindowS },
  };
}

/**
 * `campaign.started` / `campaign.ended`: a pass at `now` found the campaign's start or end at or before it. `at` is
 * the pass's time (when it was recorded); the campaign's own times are in the data. Data: `campaignId`,
 * `distributionChainId` (the chain that pays it: the campaign's key is the two), `poolId`
 * (the tracked pool whose `merklId` names the campaign's opportunity, else null), `chainId`, `opportunityId`,
 * `identifier`, `name`, `rewardToken`, `amount` (base units), `aprPercent`, `startTs`, `endTs`.
 */
export function campaignEvent(parameters: {
  campaign: ObservedCampaign;
  kind: CampaignAnnouncementKind;
  pool: PoolConfig | undefined;
  now: number;
}): NewActivity {
  const { campaign: c, kind, pool, now } = parameters;
  const poolId = pool ? formatPoolId({ chainId: pool.chainId, address: pool.address }) : null;
  const when = kind === "campaign.started" ? c.startsAt : c.endsAt;
  const subject = `Campaign ${c.name ?? c.id}${pool ? ` on ${pool.symbol} (${poolId})` : ` (chain ${c.chainId})`}`;
  return {
    kind,
    at: now,
    pool: pool ? { chainId: pool.chainId, address: pool.address } : null,
    summary: `${subject} ${kind === "campaign.started" ? "started" : "ended"} ${when === null ? "" : iso(when)}`.trim(),
    data: {
      campaignId: c.id,
      distributionChainId: c.distributionChainId,
      poolId,
      chainId: c.chainId,
      opportunityId: c.opportunityId,
      identifier: c.identifier,
      name: c.name,
      rewardToken: c.rewardToken,
      amount: c.amount,
      aprPercent: c.aprPercent,
      startTs: c.startsAt,
      endTs: c.endsAt,
    },
  };
}

/**
 * `registry.<EventName>` (e.g. `registry.Registered`): one event of the configured AttestationRegistry, at its
 * block's time. Data: the event's arguments by their ABI names (`attester`, `bond`, `amount`, `withdrawableAt`,
 * `digest`, …; addresses and hashes in lower case, integers as decimal strings), then `chainId`, `registry` (its
 * address), `event` (the name), `blockNumber` (decimal string), `logIndex`, `transactionHash`.
 */
export function registryEvent(parameters: {
  chainId: number;
  registry: string;
  eventName: RegistryEventName;
  args: Record<string, unknown>;
  block: bigint;
  logIndex: number;
  transactionHash: string;
  time: number;
}): NewActivity {
  const { chainId, registry, eventName, block, logIndex, transactionHash, time } = parameters;
  const args = Object.fromEntries(Object.entries(parameters.args).map(([key, value]) => [key, plain(value)]));
  const who = typeof args.attester === "string" ? ` for attester ${args.attester}` : "";
  return {
    kind: `registry.${eventName}`,
    at: time,
    pool: null,
    summary: `Registry ${registry} on chain ${chainId}: ${eventName}${who} (block ${block})`,
    data: {
      ...args,
      chainId,
      registry: registry.toLowerCase(),
      event: eventName,
      blockNumber: block.toString(),
      logIndex,
      transactionHash,
    },
  };
}

/** An event argument as JSON: integers as decimal strings, addresses and hashes in lower case. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value.startsWith("0x") ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

/** The tracked pool a campaign is about: same chain, and the pool's `merklId` is its opportunity id or identifier. */
export function campaignPool(campaign: ObservedCampaign, pools: readonly PoolConfig[]): PoolConfig | undefined {
  const ids = [campaign.opportunityId.toLowerCase(), campaign.identifier.toLowerCase()];
  return pools.find((p) => p.chainId === campaign.chainId && p.merklId && ids.includes(p.merklId.toLowerCase()));
}
