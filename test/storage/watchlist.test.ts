import { expect } from "chai";
import type { ReadContext } from "../../src/read/context";
import { listWalletWatchlist } from "../../src/read/listWalletWatchlist";
import type { Store } from "../../src/storage/openStore";
import { PoolNotFoundError } from "../../src/errors/poolLookup";
import { setWatchlist } from "../../src/write/setWatchlist";
import { insertPool } from "../helpers/service/app";
import { forEachBackend, type OpenFresh } from "../helpers/storage/backends";
import { rejection } from "../helpers/rejection";

const A = "0xAa00000000000000000000000000000000000001";
const B = "0xbb00000000000000000000000000000000000002";
const ME = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";

function watchlist(openFresh: OpenFresh) {
  let store: Store;
  let context: ReadContext;
  let now = 1_000;

  before(async function () {
    this.timeout(60_000);
    store = await openFresh();
    await insertPool(store, {
      chain_id: 1,
      address: A.toLowerCase(),
      symbol: "WETH-USDC",
      kind: "amm",
      protocol: "uniswap-v2",
    });
    await insertPool(store, { chain_id: 8453, address: B, symbol: "AERO-USDC", kind: "amm", protocol: "uniswap-v2" });
    context = { db: store.db, freshnessWindowS: 3600, now: () => now };
  });

  it("keeps each wallet's stars apart, oldest first, once each, and removes them", async function () {
    expect(
      await setWatchlist(context, { address: ME.toUpperCase().replace("0X", "0x"), pool: `8453:${B}`, watched: true }),
    ).to.equal(`eip155:8453:${B}`);
    now++;
    await setWatchlist(context, { address: ME, pool: `eip155:1:${A}`, watched: true });
    await setWatchlist(context, { address: ME, pool: `eip155:1:${A}`, watched: true }); // again: no second row
    await setWatchlist(context, { address: OTHER, pool: `eip155:1:${A}`, watched: true });
    expect((await listWalletWatchlist(context, { address: ME })).pools).to.deep.equal([
      `eip155:8453:${B}`,
      `eip155:1:${A.toLowerCase()}`,
    ]);
    await setWatchlist(context, { address: ME, pool: `8453:${B}`, watched: false });
    expect((await listWalletWatchlist(context, { address: ME })).pools).to.deep.equal([`eip155:1:${A.toLowerCase()}`]);
    expect((await listWalletWatchlist(context, { address: OTHER })).pools).to.deep.equal([
      `eip155:1:${A.toLowerCase()}`,
    ]);
    expect((await listWalletWatchlist(context, { address: `0x${"3".repeat(40)}` })).pools).to.deep.equal([]);
  });

  it("refuses a pool that is not tracked", async function () {
    const error = await rejection(setWatchlist(context, { address: ME, pool: `eip155:10:${B}`, watched: true }));
    expect(error).to.be.instanceOf(PoolNotFoundError);
  });
}

describe("the watchlist (src/storage/watchlist, listWalletWatchlist, setWatchlist)", function () {
  forEachBackend(watchlist);
});
