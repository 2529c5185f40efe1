import { expect } from "chai";
import type { MerklOpportunity } from "../../../src/ingest/feeds/merkl";
import { campaignRows } from "../../../src/ingest/rows/campaignRows";
import { campaignMatches } from "../../../src/storage/campaigns";

const opportunity: MerklOpportunity = {
  id: "opp-1",
  chainId: 1,
  identifier: "0x00000000000000000000000000000000000000AA",
  name: "Provide USDC-WETH",
  type: "UNISWAP_V2",
  status: "LIVE",
  apr: 12.5,
  campaigns: [
    {
      campaignId: "c-1",
      distributionChainId: 8453,
      startTimestamp: 100,
      endTimestamp: 200,
      amount: "1000",
      rewardToken: { address: "0x00000000000000000000000000000000000000BB" },
    },
    {
      campaignId: "c-2",
      startTimestamp: 150,
      endTimestamp: 300,
      amount: "5",
      rewardToken: { address: "0x00000000000000000000000000000000000000CC" },
    },
  ],
};

describe("campaignRows", () => {
  it("makes one row per campaign keyed by its distribution chain (else the opportunity's), in lower case", () => {
    const rows = campaignRows({ opportunities: [opportunity], observedAt: 180 });
    expect(rows).to.deep.equal([
      {
        id: "c-1",
        distributionChainId: 8453,
        chainId: 1,
        opportunityId: "opp-1",
        identifier: "0x00000000000000000000000000000000000000aa",
        name: "Provide USDC-WETH",
        type: "UNISWAP_V2",
        status: "LIVE",
        rewardToken: "0x00000000000000000000000000000000000000bb",
        amount: "1000",
        aprPercent: 12.5,
        startsAt: 100,
        endsAt: 200,
        observedAt: 180,
      },
      {
        id: "c-2",
        distributionChainId: 1,
        chainId: 1,
        opportunityId: "opp-1",
        identifier: "0x00000000000000000000000000000000000000aa",
        name: "Provide USDC-WETH",
        type: "UNISWAP_V2",
        status: "LIVE",
        rewardToken: "0x00000000000000000000000000000000000000cc",
        amount: "5",
        aprPercent: 12.5,
        startsAt: 150,
        endsAt: 300,
        observedAt: 180,
      },
    ]);
  });

  it("stores a missing APR as null and an opportunity without campaigns as no row", () => {
    const rows = campaignRows({ opportunities: [{ ...opportunity, apr: undefined }], observedAt: 1 });
    expect(rows.map((r) => r.aprPercent)).to.deep.equal([null, null]);
    expect(campaignRows({ opportunities: [{ ...opportunity, campaigns: [] }], observedAt: 1 })).to.deep.equal([]);
  });

  it("takes a campaign's status from its own start and end, never its opportunity's", () => {
    // As Merkl v4 lists them: a LIVE opportunity still carries a campaign that ended on 2024-07-31.
    const ended = Date.UTC(2024, 6, 31) / 1000;
    const now = Date.UTC(2026, 10, 25) / 1000;
    const live: MerklOpportunity = {
      ...opportunity,
      status: "LIVE",
      campaigns: [
        { ...opportunity.campaigns[0], campaignId: "old", startTimestamp: ended - 30 * 86_400, endTimestamp: ended },
        { ...opportunity.campaigns[0], campaignId: "now", startTimestamp: now - 10, endTimestamp: now + 86_400 },
        { ...opportunity.campaigns[0], campaignId: "soon", startTimestamp: now + 10, endTimestamp: now + 86_400 },
      ],
    };
    const rows = campaignRows({ opportunities: [live], observedAt: now });
    expect(rows.map((r) => [r.id, r.status])).to.deep.equal([
      ["old", "PAST"],
      ["now", "LIVE"],
      ["soon", "SOON"],
    ]);
  });

  it("maps both opportunities of an identifier listed with several types (supply and borrow) to its pool", () => {
    // Merkl lists one Aave reserve as an AAVE_SUPPLY and an AAVE_BORROW opportunity with the same identifier.
    const reserve = "0x724dc807b04555b71ed48a6896b6F41593b8C637";
    const supply = { ...opportunity, id: "supply", identifier: reserve, type: "AAVE_SUPPLY" };
    const borrow = {
      ...opportunity,
      id: "borrow",
      identifier: reserve,
      type: "AAVE_BORROW",
      campaigns: [{ ...opportunity.campaigns[0], campaignId: "c-borrow" }],
    };
    const rows = campaignRows({ opportunities: [supply, borrow], observedAt: 180 });
    expect(rows.map((r) => [r.id, r.type])).to.deep.equal([
      ["c-1", "AAVE_SUPPLY"],
      ["c-2", "AAVE_SUPPLY"],
      ["c-borrow", "AAVE_BORROW"],
    ]);
    expect(rows.filter((r) => campaignMatches(r, reserve.toUpperCase().replace("0X", "0x")))).to.have.length(3);
  });
});
