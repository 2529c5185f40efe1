import type { Kysely } from "kysely";
import { chunksOf, excludedOf } from "./batches";
import type { Campaign, Database } from "./schema";

/** A campaign's key: Merkl makes a campaign id unique only per distribution chain. */
export interface CampaignKey {
  distributionChainId: number;
  campaignId: string;
}

/**
 * A campaign as a pass observed it on Merkl, with every stored field: what ingestion writes ({@link upsertCampaigns})
 * and announces (`listUnannouncedCampaigns`). Camel case, numbers as numbers; identifiers and reward tokens in lower
 * case as the pass gives them.
 */
export type ObservedCampaign = CampaignRecord & {
  /** The opportunity's chain (where the pool is). */
  chainId: number;
  opportunityId: string;
  /** The opportunity's identifier as Merkl gives it (often a pool or vault address). */
  identifier: string;
  rewardToken: string | null;
  /** Base units, decimal text. */
  amount: string | null;
  aprPercent: number | null;
  /** When the feed was read, Unix seconds. */
  observedAt: number;
};

/** A stored campaign row as an {@link ObservedCampaign}. */
export function toObservedCampaign(row: Campaign): ObservedCampaign {
  return {
    ...toCampaignRecord(row),
    chainId: Number(row.chain_id),
    opportunityId: row.opportunity_id,
    identifier: row.identifier,
    rewardToken: row.reward_token,
    amount: row.amount,
    aprPercent: row.apr_percent === null ? null : Number(row.apr_percent),
    observedAt: Number(row.observed_at),
  };
}

/** The `campaigns` row of an {@link ObservedCampaign}. */
function toCampaignRow(campaign: ObservedCampaign): Campaign {
  return {
    id: campaign.id,
    distribution_chain_id: campaign.distributionChainId,
    chain_id: campaign.chainId,
    opportunity_id: campaign.opportunityId,
    identifier: campaign.identifier,
    name: campaign.name,
    type: campaign.type,
    status: campaign.status,
    reward_token: campaign.rewardToken,
    amount: campaign.amount,
    apr_percent: campaign.aprPercent,
    start_ts: campaign.startsAt,
    end_ts: campaign.endsAt,
    observed_at: campaign.observedAt,
  };
}

/** The key of a campaign. */
export function campaignKeyOf(campaign: Pick<CampaignRecord, "distributionChainId" | "id">): CampaignKey {
  return { distributionChainId: campaign.distributionChainId, campaignId: campaign.id };
}

/** A campaign key as one string, e.g. `8453:0x9f1a…`, for sets and maps. */
export function campaignKeyText(key: CampaignKey): string {
  return `${key.distributionChainId}:${key.campaignId}`;
}

/**
 * Inserts or refreshes campaigns by (distribution chain, Merkl campaign id). Campaigns no longer listed are kept as
 * history. Multi-row upserts (chunked); a campaign listed twice is written as its last listing, as one upsert per row
 * would.
 */
export async function upsertCampaigns(db: Kysely<Database>, campaigns: readonly ObservedCampaign[]): Promise<void> {
  const last = new Map(
    campaigns.map((campaign) => [campaignKeyText(campaignKeyOf(campaign)), toCampaignRow(campaign)]),
  );
  const rows = [...last.values()];
  const columns = Object.keys(rows[0] ?? {}).filter((column) => column !== "id" && column !== "distribution_chain_id");
  for (const chunk of chunksOf(rows, columns.length + 2)) {
    await db
      .insertInto("campaigns")
      .values(chunk)
      .onConflict((oc) => oc.columns(["distribution_chain_id", "id"]).doUpdateSet(excludedOf(columns)))
      .execute();
  }
}

/** Campaigns of one Merkl opportunity (matched on the opportunity id or its identifier), any status. */
export async function getCampaignsFor(db: Kysely<Database>, chainId: number, merklId: string): Promise<Campaign[]> {
  const rows = await db.selectFrom("campaigns").selectAll().where("chain_id", "=", chainId).execute();
  return rows.filter((row) => rowMatches(row, merklId));
}

/**
 * The match rule of {@link getCampaignsFor}: a campaign belongs to a pool's Merkl opportunity when its opportunity id
 * or its identifier equals the pool's `merkl_id`, any case (same chain). Never matched against yields: no shared key.
 */
export function campaignMatches(
  campaign: Pick<ObservedCampaign, "opportunityId" | "identifier">,
  merklId: string,
): boolean {
  const key = merklId.toLowerCase();
  return campaign.opportunityId.toLowerCase() === key || campaign.identifier.toLowerCase() === key;
}

/** {@link campaignMatches} of a stored row. */
function rowMatches(row: Pick<Campaign, "opportunity_id" | "identifier">, merklId: string): boolean {
  return campaignMatches({ opportunityId: row.opportunity_id, identifier: row.identifier }, merklId);
}

/**
 * {@link getCampaignsFor} for many pools in one query, as {@link ObservedCampaign}s: the campaigns of each
 * `(chainId, merklId)`, in the order given (an empty list where none matches). Campaigns are ordered by end time, then
 * id, then distribution chain.
 */
export async function getCampaignsForPools(
  db: Kysely<Database>,
  pools: readonly { chainId: number; merklId: string }[],
): Promise<ObservedCampaign[][]> {
  return (await campaignRowsForPools(db, pools)).map((rows) => rows.map(toObservedCampaign));
}

/** The rows of {@link getCampaignsForPools}, in its order. */
async function campaignRowsForPools(
  db: Kysely<Database>,
  pools: readonly { chainId: number; merklId: string }[],
): Promise<Campaign[][]> {
  if (pools.length === 0) return [];
  const chains = [...new Set(pools.map((pool) => pool.chainId))];
  const rows = await db.selectFrom("campaigns").selectAll().where("chain_id", "in", chains).execute();
  const byKey = new Map<string, Campaign[]>();
  for (const row of rows) {
    for (const key of new Set([row.opportunity_id.toLowerCase(), row.identifier.toLowerCase()])) {
      const list = byKey.get(`${Number(row.chain_id)}:${key}`) ?? [];
      list.push(row);
      byKey.set(`${Number(row.chain_id)}:${key}`, list);
    }
  }
  return pools.map((pool) =>
    [...(byKey.get(`${pool.chainId}:${pool.merklId.toLowerCase()}`) ?? [])]
      .filter((row) => rowMatches(row, pool.merklId))
      .sort(
        (a, b) =>
          Number(a.end_ts ?? 0) - Number(b.end_ts ?? 0) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
          Number(a.distribution_chain_id) - Number(b.distribution_chain_id),
      ),
  );
}

/** A campaign as the readers take it: Merkl's fields, camelCase, numbers as numbers (never joined to the yields feed). */
export type CampaignRecord = {
  /** Merkl's campaign id: unique per `distributionChainId` only, the pair is the campaign's key. */
  id: string;
  /** The chain whose Merkl distributor pays the rewards (may differ from the pool's chain). */
  distributionChainId: number;
  name: string | null;
  /** The opportunity's type, e.g. `UNISWAP_V2`, `AAVE_BORROW`; a borrow-side type never caps a depth claim. */
  type: string | null;
  status: string | null;
  /** Unix seconds; null when Merkl gave none. */
  startsAt: number | null;
  endsAt: number | null;
};

/** {@link getCampaignsForPools} as {@link CampaignRecord}s, in the same order. */
export async function listCampaignRecordsForPools(
  db: Kysely<Database>,
  pools: readonly { chainId: number; merklId: string }[],
): Promise<CampaignRecord[][]> {
  return (await campaignRowsForPools(db, pools)).map((rows) => rows.map(toCampaignRecord));
}

function toCampaignRecord(row: Campaign): CampaignRecord {
  return {
    id: row.id,
    distributionChainId: Number(row.distribution_chain_id),
    name: row.name,
    type: row.type,
    status: row.status,
    startsAt: row.start_ts === null ? null : Number(row.start_ts),
    endsAt: row.end_ts === null ? null : Number(row.end_ts),
  };
}

/**
 * Whether a campaign can cap a pool's depth claim: not when its opportunity type rewards borrowing (a type name
 * containing `BORROW`, any case, e.g. `AAVE_BORROW`, `MORPHOBORROW`). One Merkl identifier (a lending reserve) can carry
 * a supply and a borrow opportunity; the borrow side's campaigns reward borrowing, not depth, so their end says nothing
 * about the depth. They are still stored and listed with their type.
 */
export function capsDepthClaim(campaign: Pick<CampaignRecord, "type">): boolean {
  return !(campaign.type ?? "").toUpperCase().includes("BORROW");
}

/** The end times after `now` of the campaigns that cap a depth claim ({@link capsDepthClaim}), soonest first. */
export function depthCapEnds(campaigns: readonly Pick<CampaignRecord, "type" | "endsAt">[], now: number): number[] {
  return campaigns
    .filter(capsDepthClaim)
    .flatMap((c) => (c.endsAt !== null && c.endsAt > now ? [c.endsAt] : []))
    .sort((a, b) => a - b);
}

/** How many campaigns are stored (any status). */
export async function countCampaigns(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("campaigns")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
