import { expect } from "chai";
import { Migrator, sql } from "kysely";
import { listUnannouncedCampaigns, recordCampaignAnnouncements } from "../../src/storage/campaignAnnouncements";
import {
  countCampaigns,
  getCampaignsForPools,
  upsertCampaigns,
  type ObservedCampaign,
} from "../../src/storage/campaigns";
import { migrations } from "../../src/storage/migrations";
import type { Store } from "../../src/storage/openStore";
import { forEachBackend } from "../helpers/storage/backends";

const T = 1_767_225_600;
const ID = "0x" + "5a".repeat(32);

/** One campaign row on opportunity chain 1, paid on `distributionChainId`. */
function campaign(distributionChainId: number, endTs: number): ObservedCampaign {
  return {
    id: ID,
    distributionChainId,
    chainId: 1,
    opportunityId: "77",
    identifier: "0x" + "cd".repeat(20),
    name: `paid on ${distributionChainId}`,
    type: "UNISWAP_V2",
    status: "LIVE",
    rewardToken: "0x" + "ee".repeat(20),
    amount: "1000",
    aprPercent: 2,
    startsAt: T - 86_400,
    endsAt: endTs,
    observedAt: T,
  };
}

/** A campaign is keyed by (distributionChainId, campaignId); Merkl makes the id unique per chain only. */
describe("campaign key (distribution chain, campaign id)", function () {
  forEachBackend((openFresh) => {
    let store: Store;
    beforeEach(async function () {
      store = await openFresh();
    });
    afterEach(async function () {
      await store.close();
    });

    it("stores and announces two campaigns with one id on two distribution chains, each once", async function () {
      await upsertCampaigns(store.db, [campaign(1, T + 86_400), campaign(8453, T + 2 * 86_400)]);
      expect(await countCampaigns(store.db)).to.equal(2);
      const [listed] = await getCampaignsForPools(store.db, [{ chainId: 1, merklId: "77" }]);
      expect(listed.map((c) => [c.distributionChainId, c.name])).to.deep.equal([
        [1, "paid on 1"],
        [8453, "paid on 8453"],
      ]);
      const due = await listUnannouncedCampaigns(store.db, { kind: "campaign.started", now: T });
      expect(due.map((c) => c.distributionChainId)).to.deep.equal([1, 8453]);
      const keys = due.map((c) => ({ distributionChainId: c.distributionChainId, campaignId: c.id }));
      const first = await recordCampaignAnnouncements(store.db, { campaigns: keys, kind: "campaign.started", at: T });
      expect(first).to.deep.equal(keys);
      const again = await recordCampaignAnnouncements(store.db, { campaigns: keys, kind: "campaign.started", at: T });
      expect(again).to.deep.equal([]);
      expect(await listUnannouncedCampaigns(store.db, { kind: "campaign.started", now: T })).to.deep.equal([]);
    });

    it("011_campaign_key keeps the campaigns and announcements written under 010, paid on their own chain", async function () {
      const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
      const down = await migrator.migrateTo("010_cursor_hash");
      expect(down.error).to.equal(undefined);
      await sql`insert into campaigns (id, chain_id, opportunity_id, identifier, name, type, status, reward_token,
          amount, apr_percent, start_ts, end_ts, observed_at)
        values (${ID}, ${42161}, ${"77"}, ${"0xabc"}, ${"old"}, ${"AAVE_SUPPLY"}, ${"LIVE"}, ${"0xee"}, ${"5"},
          ${1.5}, ${T - 10}, ${T + 10}, ${T})`.execute(store.db);
      await sql`insert into campaign_announcements (campaign_id, kind, at)
        values (${ID}, ${"campaign.started"}, ${T})`.execute(store.db);
      const up = await migrator.migrateToLatest();
      expect(up.error).to.equal(undefined);
      const rows = await store.db.selectFrom("campaigns").selectAll().execute();
      expect(rows.map((r) => ({ ...r, distribution_chain_id: Number(r.distribution_chain_id) }))).to.deep.equal([
        {
          id: ID,
          distribution_chain_id: 42161,
          chain_id: 42161,
          opportunity_id: "77",
          identifier: "0xabc",
          name: "old",
          type: "AAVE_SUPPLY",
          status: "LIVE",
          reward_token: "0xee",
          amount: "5",
          apr_percent: 1.5,
          start_ts: rows[0].start_ts,
          end_ts: rows[0].end_ts,
          observed_at: rows[0].observed_at,
        },
      ]);
      expect([rows[0].start_ts, rows[0].end_ts, rows[0].observed_at].map(Number)).to.deep.equal([T - 10, T + 10, T]);
      // Announced under 010: not announced again.
      expect(await listUnannouncedCampaigns(store.db, { kind: "campaign.started", now: T + 20 })).to.deep.equal([]);
      expect(
        (await listUnannouncedCampaigns(store.db, { kind: "campaign.ended", now: T + 20 })).map((c) => c.id),
      ).to.deep.equal([ID]);
    });
  });
});
