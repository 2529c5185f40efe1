import { expect } from "chai";
import { getAddress, type Address } from "viem";
import type { DemoToken } from "../../src/chain/uniswapV2";
import { demoCampaigns } from "../../src/demo/demoCampaigns";
import type { DemoPool } from "../../src/demo/demoChainState";
import { DEMO_CAMPAIGNS, DEMO_CHAINS, DEMO_STALE_POOL, demoPoolSpecs } from "../../src/demo/demoConfig";
import { demoDefillamaId, demoMerklId } from "../../src/demo/feedBodies";
import { startFeedServer, type FeedServer } from "../../src/demo/feedServer";
import { DemoChainError } from "../../src/errors/chain";
import { fetchDefillamaChart, fetchDefillamaPools } from "../../src/ingest/feeds/defillamaYields";
import { fetchMerklOpportunities } from "../../src/ingest/feeds/merkl";

const DAY = 86_400;
/** The present: 2026-11-20 15:00 UTC. */
const PRESENT = Date.UTC(2026, 10, 20, 15) / 1000;
const TODAY = Date.UTC(2026, 10, 20) / 1000;
const fast = { timeoutMs: 2000, retries: 0, backoffMs: 1 };

/** Every demo pool with a made-up address, as `startDemoChains` lists them (addresses differ per chain here). */
const POOLS: DemoPool[] = DEMO_CHAINS.flatMap((chain) =>
  demoPoolSpecs(chain).map((p, i) => ({
    chainId: chain.chainId,
    address: getAddress(`0x${chain.chainId.toString(16).padStart(8, "0")}${String(i + 1).padStart(32, "0")}`),
    kind: p.kind,
    protocol: p.protocol,
    symbol: p.name,
    underlying: [getAddress(`0x${"a".repeat(39)}${i}`)],
  })),
);
const TOKENS: Record<number, Record<string, DemoToken>> = Object.fromEntries(
  DEMO_CHAINS.map((chain) => [
    chain.chainId,
    Object.fromEntries(
      chain.tokens.map((t, i) => [
        t.symbol,
        { address: getAddress(`0x${"b".repeat(38)}${i}${chain.chainId % 10}`), symbol: t.symbol, decimals: t.decimals },
      ]),
    ),
  ]),
);
const poolOf = (chainId: number, protocol: string, symbol: string) =>
  POOLS.find((p) => p.chainId === chainId && p.protocol === protocol && p.symbol === symbol)!;

describe("demoCampaigns", function () {
  const campaigns = demoCampaigns({ pools: POOLS, tokens: TOKENS, present: PRESENT });

  it("dates every campaign in whole UTC days from the present's day, on the pool it names", function () {
    expect(campaigns).to.have.length(DEMO_CAMPAIGNS.length);
    DEMO_CAMPAIGNS.forEach((spec, i) => {
      const c = campaigns[i];
      expect(c.startTimestamp).to.equal(TODAY + spec.startDay * DAY);
      expect(c.endTimestamp).to.equal(TODAY + spec.endDay * DAY);
      expect(c.pool).to.equal(poolOf(spec.chainId, spec.protocol, spec.name).address);
      expect(c.rewardToken.address).to.equal(TOKENS[spec.chainId][spec.rewardToken].address);
      expect(c.amount > 0n).to.equal(true);
    });
    expect(new Set(campaigns.map((c) => c.campaignId)).size).to.equal(campaigns.length);
  });

  it("runs two campaigns with different end dates on one pool (WETH-USDC on chain 1), its last ending in 45 days", function () {
    const pool = poolOf(1, "uniswap-v2", "WETH-USDC");
    const own = campaigns.filter((c) => c.pool === pool.address && c.chainId === 1);
    expect(own).to.have.length(2);
    expect(new Set(own.map((c) => c.endTimestamp)).size).to.equal(2);
    expect(Math.max(...own.map((c) => c.endTimestamp))).to.equal(TODAY + 45 * DAY);
  });

  it("has campaigns ending on several future dates, some ended, some started within the last two weeks", function () {
    const live = campaigns.filter((c) => c.startTimestamp <= PRESENT && c.endTimestamp > PRESENT);
    const lastEnd = new Map<string, number>();
    for (const c of live) lastEnd.set(c.pool, Math.max(lastEnd.get(c.pool) ?? 0, c.endTimestamp));
    expect(new Set(lastEnd.values()).size).to.be.at.least(6);
    expect(campaigns.filter((c) => c.endTimestamp <= PRESENT).length).to.be.at.least(3);
    // Ended during a 16-day history (LINK-WETH, 6 days ago) and started during it (at least three).
    expect(campaigns.some((c) => c.endTimestamp <= PRESENT && c.endTimestamp > PRESENT - 15 * DAY)).to.equal(true);
    expect(campaigns.filter((c) => c.startTimestamp > PRESENT - 15 * DAY).length).to.be.at.least(3);
    // Both venues and the lending market have one.
    expect(new Set(DEMO_CAMPAIGNS.map((c) => c.protocol))).to.deep.equal(
      new Set(["uniswap-v2", "sushiswap-v2", "aave-v3"]),
    );
  });

  it("ends the declining pools' campaigns when their declines start, and gives the silent pool none", function () {
    for (const chain of DEMO_CHAINS) {
      for (const p of demoPoolSpecs(chain)) {
        const since =
          p.kind === "amm"
            ? p.spec.activity.kind === "decline"
              ? p.spec.activity.sinceDaysAgo
              : undefined
            : p.spec.activity.supplyDecline?.sinceDaysAgo;
        if (since === undefined) continue;
        const spec = DEMO_CAMPAIGNS.find(
          (c) => c.chainId === chain.chainId && c.protocol === p.protocol && c.name === p.name,
        );
        expect(spec?.endDay, `${chain.chainId} ${p.name}`).to.equal(-since);
      }
    }
    expect(
      DEMO_CAMPAIGNS.some(
        (c) =>
          c.chainId === DEMO_STALE_POOL.chainId &&
          c.protocol === DEMO_STALE_POOL.protocol &&
          c.name === DEMO_STALE_POOL.name,
      ),
    ).to.equal(false);
  });

  it("throws DemoChainError for a campaign on no demo pool or paid in no demo token", function () {
    const base = DEMO_CAMPAIGNS[0];
    for (const spec of [
      { ...base, name: "DOGE-USDC" },
      { ...base, rewardToken: "DOGE" },
      { ...base, endDay: base.startDay },
    ]) {
      expect(() => demoCampaigns({ pools: POOLS, tokens: TOKENS, present: PRESENT, specs: [spec] })).to.throw(
        DemoChainError,
      );
    }
  });
});

describe("startFeedServer with the demo's campaigns", function () {
  let server: FeedServer;
  let clock = PRESENT;
  let hidden: Address | null = null;
  const campaigns = demoCampaigns({ pools: POOLS, tokens: TOKENS, present: PRESENT });

  before(async function () {
    server = await startFeedServer({
      pools: POOLS,
      now: () => clock,
      campaigns,
      listed: (pool) => pool.address !== hidden,
    });
  });
  after(() => server.close());

  const opportunities = async (chainIds: number[]) =>
    (await fetchMerklOpportunities({ merklUrl: server.urls.merklApiUrl, chainIds, ...fast })).opportunities;

  /** The raw answer to `/v4/opportunities?{query}`: its status and body. */
  const raw = async (query: string) => {
    const response = await fetch(`${server.urls.merklApiUrl}/v4/opportunities?${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown>[] };
  };

  it("serves Merkl v4 opportunities for the pools with a started campaign, with their dates", async function () {
    clock = PRESENT;
    // The ingest asks for LIVE and SOON only: a PAST opportunity (every campaign ended) is left out, as Merkl does.
    const all = await opportunities([1, 42161, 8453]);
    const pasts = (await raw("campaigns=true&status=PAST")).body as unknown as (typeof all)[number][];
    const past = pasts.find((o) => o.identifier === poolOf(1, "uniswap-v2", "LINK-WETH").address)!;
    const started = campaigns.filter((c) => c.startTimestamp <= PRESENT);
    expect([...all, ...pasts].reduce((n, o) => n + o.campaigns.length, 0)).to.equal(started.length);
    expect(all.every((o) => o.status === "LIVE")).to.equal(true);
    expect(all.flatMap((o) => o.campaigns.map((c) => c.distributionChainId))).to.deep.equal(
      all.flatMap((o) => o.campaigns.map(() => o.chainId)),
    );
    const weth = poolOf(1, "uniswap-v2", "WETH-USDC");
    const opportunity = all.find((o) => o.chainId === 1 && o.identifier === weth.address)!;
    expect(opportunity.id).to.equal(demoMerklId(1, weth.address));
    expect(opportunity.status).to.equal("LIVE");
    expect(opportunity.campaigns.map((c) => c.endTimestamp)).to.deep.equal([TODAY + 21 * DAY, TODAY + 45 * DAY]);
    expect(pasts.every((o) => o.status === "PAST")).to.equal(true);
    expect(past.status).to.equal("PAST");
    expect(past.apr).to.equal(0);
    expect(opportunity.apr).to.be.greaterThan(0);
  });

  it("honours chainId, status, items and page as Merkl does, and refuses a malformed query with 400", async function () {
    clock = PRESENT;
    const every = (await raw("campaigns=true&items=100")).body;
    expect(every.map((o) => o.status)).to.include.members(["LIVE", "PAST"]);
    const ids = (query: string) => raw(query).then(({ body }) => body.map((o) => o.id));
    expect(await ids("campaigns=true")).to.deep.equal(every.slice(0, 20).map((o) => o.id)); // 20 a page by default
    expect(await ids("items=2&page=1")).to.deep.equal(every.slice(2, 4).map((o) => o.id));
    expect(await ids("items=100&page=1")).to.deep.equal([]);
    const arbitrum = (await raw("chainId=42161,8453&status=live,soon&items=100")).body;
    expect(arbitrum.length).to.be.greaterThan(0);
    expect(arbitrum.every((o) => [42161, 8453].includes(o.chainId as number) && o.status === "LIVE")).to.equal(true);
    for (const query of ["items=0", "items=101", "page=-1", "status=ENDED", "chainId=ethereum"]) {
      expect((await raw(query)).status, query).to.equal(400);
    }
  });

  it("lists a campaign from its start: the day before the second one began, WETH-USDC (1) had one, ARB-WETH none", async function () {
    clock = TODAY - 8 * DAY - 3600;
    const all = await opportunities([1, 42161]);
    const weth = all.find((o) => o.chainId === 1 && o.identifier === poolOf(1, "uniswap-v2", "WETH-USDC").address)!;
    expect(weth.campaigns).to.have.length(1);
    expect(all.some((o) => o.identifier === poolOf(42161, "sushiswap-v2", "ARB-WETH").address)).to.equal(false);
    // The yields feed's reward APY follows the campaigns running then.
    const pools = (await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast })).rows;
    expect(pools.find((p) => p.symbol === "ARB-WETH")!.apyReward).to.equal(0);
    clock = PRESENT;
  });

  it("stops listing a pool in the yields feed and Merkl when it is not listed, and keeps its chart", async function () {
    const pool = poolOf(1, "aave-v3", "USDC");
    hidden = pool.address;
    try {
      const pools = (await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast })).rows;
      expect(pools).to.have.length(POOLS.length - 1);
      expect(pools.map((p) => p.pool)).to.not.include(demoDefillamaId(1, pool.address));
      expect((await opportunities([1])).some((o) => o.identifier === pool.address)).to.equal(false);
      const chart = await fetchDefillamaChart({
        yieldsUrl: server.urls.defillamaYieldsUrl,
        poolId: demoDefillamaId(1, pool.address),
        ...fast,
      });
      expect(chart.rows).to.have.length(1);
    } finally {
      hidden = null;
    }
    expect((await fetchDefillamaPools({ yieldsUrl: server.urls.defillamaYieldsUrl, ...fast })).rows).to.have.length(
      POOLS.length,
    );
  });
});
