import { expect } from "chai";
import { FeedRequestError, FeedValidationError } from "../../src/errors/feeds";
import { fetchDefillamaCoinPrices } from "../../src/ingest/feeds/defillamaCoins";
import { fixture, startRouteServer, type RouteServer } from "../helpers/ingest/routeServer";
import { rejection } from "../helpers/rejection";

const fast = { timeoutMs: 300, retries: 2, backoffMs: 5 };
const USDC = "ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const WETH = "ethereum:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
const ARB_USDC = "arbitrum:0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
const PATH = `/prices/current/${USDC},${WETH},${ARB_USDC}`;

describe("fetchDefillamaCoinPrices", () => {
  let server: RouteServer;
  beforeEach(async () => {
    server = await startRouteServer({ [PATH]: () => ({ body: fixture("defillama-coins.json") }) });
  });
  afterEach(() => server.close());

  const fetchAll = async (coinsUrl = server.url) =>
    (await fetchDefillamaCoinPrices({ coinsUrl, coins: [USDC, WETH, ARB_USDC], ...fast })).coins;

  it("asks for every coin in one request and returns the documented shape, keyed in lower case", async () => {
    const prices = await fetchAll(`${server.url}/`);
    expect([...prices.keys()]).to.deep.equal([USDC.toLowerCase(), WETH.toLowerCase(), ARB_USDC.toLowerCase()]);
    expect(prices.get(WETH.toLowerCase())).to.deep.equal({
      decimals: 18,
      symbol: "WETH",
      price: 3187.42,
      timestamp: 1795174498,
      confidence: 0.99,
    });
    expect(prices.get(ARB_USDC.toLowerCase())).to.deep.equal({
      symbol: "USDC",
      price: 1.000031,
      timestamp: 1795174470,
    });
    expect(server.counts.get(PATH)).to.equal(1);
  });

  it("returns nothing without a request when asked for no coin", async () => {
    expect((await fetchDefillamaCoinPrices({ coinsUrl: server.url, coins: [], ...fast })).coins.size).to.equal(0);
    expect(server.counts.size).to.equal(0);
  });

  it("gives up after the retries when the API times out", async () => {
    server.routes.set(PATH, () => ({ delayMs: 1000, body: fixture("defillama-coins.json") }));
    const error = await rejection(fetchAll());
    expect(error).to.be.instanceOf(FeedRequestError);
    expect((error as FeedRequestError).shortMessage).to.match(/timed out after 300 ms/);
    expect(server.counts.get(PATH)).to.equal(3);
  });

  it("retries a 500, then gives up with the status", async () => {
    server.routes.set(PATH, () => ({ status: 500, body: { error: "boom" } }));
    const error = await rejection(fetchAll());
    expect(error).to.be.instanceOf(FeedRequestError);
    expect(error).to.include({ status: 500, attempts: 3, source: "defillama-coins" });
  });

  it("recovers when a retry succeeds", async () => {
    server.routes.set(PATH, ({ count }) => (count === 1 ? { status: 500 } : { body: fixture("defillama-coins.json") }));
    expect((await fetchAll()).size).to.equal(3);
  });

  it("rejects a body that is not JSON, without retrying", async () => {
    server.routes.set(PATH, () => ({ body: "<html>502 Bad Gateway</html>" }));
    const error = await rejection(fetchAll());
    expect(error).to.be.instanceOf(FeedValidationError);
    expect(server.counts.get(PATH)).to.equal(1);
  });

  it("skips and counts a coin that breaks the shape, and uses the others", async () => {
    const body = fixture("defillama-coins.json") as { coins: Record<string, Record<string, unknown>> };
    body.coins[WETH].price = "3187.42";
    server.routes.set(PATH, () => ({ body }));
    const answer = await fetchDefillamaCoinPrices({ coinsUrl: server.url, coins: [USDC, WETH, ARB_USDC], ...fast });
    expect([...answer.coins.keys()]).to.deep.equal([USDC.toLowerCase(), ARB_USDC.toLowerCase()]);
    expect(answer.rejectedRows).to.equal(1);
    expect(answer.reasons).to.deep.equal([`coins["${WETH}"].price: Expected number, received string`]);
  });

  it("skips a coin whose timestamp is in milliseconds, and refuses both spellings of one key with two prices", async () => {
    const body = fixture("defillama-coins.json") as { coins: Record<string, Record<string, unknown>> };
    body.coins[WETH].timestamp = Number(body.coins[WETH].timestamp) * 1000;
    body.coins[USDC.toLowerCase()] = { ...body.coins[USDC], price: 0.5 };
    server.routes.set(PATH, () => ({ body }));
    const answer = await fetchDefillamaCoinPrices({ coinsUrl: server.url, coins: [USDC, WETH, ARB_USDC], ...fast });
    expect([...answer.coins.keys()]).to.deep.equal([ARB_USDC.toLowerCase()]);
    expect(answer).to.deep.include({ rejectedRows: 1, conflicts: 1 });
    expect(answer.reasons[0]).to.match(new RegExp(`^coins\\["${WETH}"\\]\\.timestamp: \\d{13} is not Unix seconds`));
    expect(answer.reasons[1]).to.equal(`coins: coin "${USDC.toLowerCase()}" answered twice with different values`);
  });

  it("rejects the whole response when its envelope is wrong", async () => {
    for (const bad of [{ coins: [] }, { data: {} }, { coins: "none" }]) {
      server.routes.set(PATH, () => ({ body: bad }));
      expect(await rejection(fetchAll()), JSON.stringify(bad)).to.be.instanceOf(FeedValidationError);
    }
  });
});
