import { expect } from "chai";
import { FeedRequestError, FeedValidationError } from "../../src/errors/feeds";
import { fetchDexOverview } from "../../src/ingest/feeds/defillamaDexVolumes";
import { fetchDefillamaChart, fetchDefillamaPools } from "../../src/ingest/feeds/defillamaYields";
import { fetchJson } from "../../src/ingest/feeds/fetchJson";
import { fetchMerklOpportunities } from "../../src/ingest/feeds/merkl";
import { z } from "zod";
import { fixture, startRouteServer, type RouteServer } from "../helpers/ingest/routeServer";
import { rejection } from "../helpers/rejection";

const fast = { timeoutMs: 2000, retries: 2, backoffMs: 5 };

describe("feed adapters", () => {
  let server: RouteServer;
  beforeEach(async () => {
    server = await startRouteServer({
      "/pools": () => ({ body: fixture("defillama-pools.json") }),
      "/chart/a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601": () => ({ body: fixture("defillama-chart.json") }),
      "/overview/dexs/ethereum": () => ({ body: fixture("defillama-dexs-ethereum.json") }),
      "/v4/opportunities": () => ({ body: fixture("merkl-opportunities.json") }),
    });
  });
  afterEach(() => server.close());

  describe("fetchDefillamaPools", () => {
    it("returns every pool of the documented /pools shape", async () => {
      const pools = (await fetchDefillamaPools({ yieldsUrl: server.url, ...fast })).rows;
      expect(pools.map((p) => p.pool)).to.deep.equal([
        "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
        "d9e8f7a6-b5c4-4d3e-9f21-0a1b2c3d4e02",
        "0f1e2d3c-4b5a-4697-8877-665544332203",
      ]);
      expect(pools[0]).to.include({
        chain: "Ethereum",
        project: "uniswap-v2",
        tvlUsd: 41235877,
        apy: 6.12847,
        volumeUsd1d: 9184220.5,
      });
      expect(pools[1].underlyingTokens).to.deep.equal(["0xaf88d065e77c8cC2239327C5EDb3A432268e5831"]);
    });

    it("skips and counts a pool that breaks the schema, and uses the others", async () => {
      const body = fixture("defillama-pools.json") as { data: Record<string, unknown>[] };
      body.data[2].tvlUsd = "12004011";
      server.routes.set("/pools", () => ({ body }));
      const answer = await fetchDefillamaPools({ yieldsUrl: server.url, ...fast });
      expect(answer.rows.map((p) => p.pool)).to.deep.equal([
        "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
        "d9e8f7a6-b5c4-4d3e-9f21-0a1b2c3d4e02",
      ]);
      expect(answer).to.deep.include({ rejectedRows: 1, conflicts: 0, answered: 3 });
      expect(answer.reasons).to.deep.equal(["data[2].tvlUsd: Expected number, received string"]);
      expect(server.counts.get("/pools")).to.equal(1);
    });

    it("rejects a status other than success", async () => {
      server.routes.set("/pools", () => ({ body: { status: "error", data: [] } }));
      expect(await rejection(fetchDefillamaPools({ yieldsUrl: server.url, ...fast }))).to.be.instanceOf(
        FeedValidationError,
      );
    });
  });

  it("fetchDefillamaChart returns the history points", async () => {
    const { rows: points } = await fetchDefillamaChart({
      yieldsUrl: `${server.url}/`,
      poolId: "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
      ...fast,
    });
    expect(points.map((p) => p.tvlUsd)).to.deep.equal([40012345, 39877120, 41235877]);
    expect(points[0].timestamp).to.equal("2026-11-18T23:01:12.000Z");
  });

  it("fetchDexOverview returns the chart, its per-protocol breakdown and the protocols", async () => {
    const { overview } = await fetchDexOverview({ apiUrl: server.url, chain: "ethereum", ...fast });
    expect(overview.totalDataChart[2]).to.deep.equal([1763683200, 1902223001]);
    expect(overview.totalDataChartBreakdown[0][1]["Uniswap V2"]).to.equal(120334455);
    expect(overview.protocols.map((p) => p.name)).to.deep.equal(["Uniswap V2", "Uniswap V3", "Curve DEX"]);
  });

  it("fetchDexOverview keeps a chain whose series hold negative and missing values, each value dropped alone", async () => {
    // The fixture carries them as a recorded response does: a protocol total1y of -6212564, a negative day, a null.
    const { overview } = await fetchDexOverview({ apiUrl: server.url, chain: "ethereum", ...fast });
    expect(overview.totalDataChartBreakdown[1][1]).to.deep.equal({
      "Uniswap V2": 110012334,
      "Uniswap V3": 1445000000,
      "Curve DEX": null,
    });
    expect(overview.totalDataChartBreakdown[2][1]["Curve DEX"]).to.equal(null);
    expect(overview.protocols[2].total24h).to.equal(null);
  });

  describe("fetchMerklOpportunities", () => {
    it("returns opportunities with campaigns, timestamps as numbers whether sent as numbers or strings", async () => {
      const { opportunities, complete } = await fetchMerklOpportunities({
        merklUrl: server.url,
        chainIds: [1, 42161],
        ...fast,
      });
      expect(complete).to.equal(true);
      expect(opportunities).to.have.length(3);
      expect(opportunities.map((o) => o.type)).to.deep.equal(["UNISWAP_V2", "AAVE_SUPPLY", "AAVE_BORROW"]);
      expect(opportunities[0]).to.include({ id: "8830423186428491294", chainId: 1, status: "LIVE", apr: 2.74 });
      expect(opportunities[0].campaigns[0]).to.include({ startTimestamp: 1762128000, endTimestamp: 1764720000 });
      expect(opportunities[1].campaigns[0]).to.include({ startTimestamp: 1762992000, endTimestamp: 1765584000 });
      expect(opportunities[1].campaigns[0].rewardToken.symbol).to.equal("ARB");
      expect(opportunities[1].campaigns[0].distributionChainId).to.equal(42161);
    });

    it("asks for campaigns on the given chains and follows pages until a short one", async () => {
      const all = fixture("merkl-opportunities.json") as unknown[];
      const seen: string[] = [];
      server.routes.set("/v4/opportunities", ({ query }) => {
        seen.push(query.toString());
        const page = Number(query.get("page"));
        return { body: all.slice(page, page + 1) };
      });
      const { opportunities } = await fetchMerklOpportunities({
        merklUrl: server.url,
        chainIds: [1, 42161],
        items: 1,
        ...fast,
      });
      expect(opportunities.map((o) => o.chainId)).to.deep.equal([1, 42161, 42161]);
      expect(seen).to.deep.equal([
        "campaigns=true&chainId=1%2C42161&status=LIVE%2CSOON&items=1&page=0",
        "campaigns=true&chainId=1%2C42161&status=LIVE%2CSOON&items=1&page=1",
        "campaigns=true&chainId=1%2C42161&status=LIVE%2CSOON&items=1&page=2",
        "campaigns=true&chainId=1%2C42161&status=LIVE%2CSOON&items=1&page=3",
      ]);
    });

    /** A Merkl listing of `total` opportunities, pages of `items`, as the real API pages them. */
    function listing(total: number) {
      const one = (fixture("merkl-opportunities.json") as Record<string, unknown>[])[0];
      return ({ query }: { query: URLSearchParams }) => {
        const items = Number(query.get("items"));
        const page = Number(query.get("page"));
        const count = Math.max(0, Math.min(items, total - page * items));
        return { body: Array.from({ length: count }, (_, i) => ({ ...one, id: String(page * items + i) })) };
      };
    }

    it("reads past 20 pages (more than 2,000 opportunities) to the end, and says it is complete", async () => {
      server.routes.set("/v4/opportunities", listing(2_050));
      const { opportunities, complete } = await fetchMerklOpportunities({
        merklUrl: server.url,
        chainIds: [1],
        ...fast,
      });
      expect(opportunities).to.have.length(2_050);
      expect(new Set(opportunities.map((o) => o.id)).size).to.equal(2_050);
      expect(complete).to.equal(true);
    });

    it("says it is incomplete when its page bound stops the read", async () => {
      server.routes.set("/v4/opportunities", listing(5));
      const result = await fetchMerklOpportunities({
        merklUrl: server.url,
        chainIds: [1],
        items: 2,
        maxPages: 2,
        ...fast,
      });
      expect(result.opportunities).to.have.length(4);
      expect(result.complete).to.equal(false);
    });
  });

  describe("fetchJson retry and timeout policy", () => {
    const schema = z.object({ ok: z.literal(true) });

    it("retries a 500 and succeeds when the feed recovers", async () => {
      const lines: string[] = [];
      server.routes.set("/flaky", ({ count }) => (count < 3 ? { status: 500, body: "oops" } : { body: { ok: true } }));
      const body = await fetchJson({
        source: "t",
        url: `${server.url}/flaky`,
        schema,
        ...fast,
        log: (l) => lines.push(l),
      });
      expect(body).to.deep.equal({ ok: true });
      expect(server.counts.get("/flaky")).to.equal(3);
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/HTTP 500/);
    });

    it("gives up after the bounded retries with FeedRequestError naming the status", async () => {
      server.routes.set("/down", () => ({ status: 503, body: "" }));
      const error = (await rejection(
        fetchJson({ source: "t", url: `${server.url}/down`, schema, ...fast }),
      )) as FeedRequestError;
      expect(error).to.be.instanceOf(FeedRequestError);
      expect(error.status).to.equal(503);
      expect(error.attempts).to.equal(3);
      expect(error.code).to.equal("FEED_REQUEST_FAILED");
      expect(server.counts.get("/down")).to.equal(3);
    });

    it("never retries a 4xx other than 429", async () => {
      server.routes.set("/gone", () => ({ status: 404, body: {} }));
      const error = (await rejection(
        fetchJson({ source: "t", url: `${server.url}/gone`, schema, ...fast }),
      )) as FeedRequestError;
      expect(error.attempts).to.equal(1);
      expect(server.counts.get("/gone")).to.equal(1);
      server.routes.set("/busy", ({ count }) => (count === 1 ? { status: 429, body: {} } : { body: { ok: true } }));
      expect(await fetchJson({ source: "t", url: `${server.url}/busy`, schema, ...fast })).to.deep.equal({ ok: true });
    });

    it("aborts an attempt that exceeds the timeout, retries, then fails with a timeout reason", async () => {
      server.routes.set("/slow", () => ({ delayMs: 2000, body: { ok: true } }));
      const error = (await rejection(
        fetchJson({ source: "t", url: `${server.url}/slow`, schema, timeoutMs: 100, retries: 1, backoffMs: 5 }),
      )) as FeedRequestError;
      expect(error).to.be.instanceOf(FeedRequestError);
      expect(error.shortMessage).to.match(/timed out after 100 ms/);
      expect(error.attempts).to.equal(2);
      expect(server.counts.get("/slow")).to.equal(2);
    });

    it("rejects a body that is not JSON without retrying", async () => {
      server.routes.set("/garbage", () => ({ body: "<html>502 Bad Gateway</html>" }));
      const error = (await rejection(
        fetchJson({ source: "t", url: `${server.url}/garbage`, schema, ...fast }),
      )) as FeedValidationError;
      expect(error).to.be.instanceOf(FeedValidationError);
      expect(error.issues[0]).to.match(/not JSON/);
      expect(server.counts.get("/garbage")).to.equal(1);
    });

    it("reports a refused connection as a network error", async () => {
      const url = server.url;
      await server.close();
      const error = (await rejection(
        fetchJson({ source: "t", url: `${url}/x`, schema, retries: 0 }),
      )) as FeedRequestError;
      expect(error).to.be.instanceOf(FeedRequestError);
      expect(error.shortMessage).to.match(/network error/);
      server = await startRouteServer();
    });
  });
});
