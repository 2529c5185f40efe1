import { expect } from "chai";
import type { Address, PublicClient } from "viem";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { Store } from "../../src/storage/openStore";
import { getPool } from "../../src/storage/pools";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

/** 2026-11-01 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 1, 12) / 1000;
const DAY = 86_400;
const quiet = () => undefined;

describe("every pass checks each chain's eth_chainId", function () {
  let mainnet: LocalMarket;
  let arbitrum: LocalMarket;
  let temp: TempStore;
  let store: Store;

  before(async () => {
    // Deployed by the same account in the same order: the pair has the same address on both chains, as real
    // deployments often do, so a swapped RPC would store one chain's depth under the other's pool.
    [mainnet, arbitrum] = await Promise.all([
      startLocalMarket({ chainId: 1, genesisTime: T0 - DAY }),
      startLocalMarket({ chainId: 42161, genesisTime: T0 - DAY }),
    ]);
    expect(mainnet.pair).to.equal(arbitrum.pair);
    temp = await openTempStore({ prefix: "chainids-" });
    store = temp.store;
  });
  after(async () => {
    await temp?.cleanup();
    await Promise.all([mainnet?.stop(), arbitrum?.stop()]);
  });

  async function passAt(time: number, clients: { 1: PublicClient; 42161: PublicClient }) {
    await Promise.all([mainnet.mineAt(time), arbitrum.mineAt(time)]);
    return runIngestionPass({
      store,
      pools: [...mainnet.pools, ...arbitrum.pools],
      chains: [
        { chainId: 1, client: clients[1] },
        { chainId: 42161, client: clients[42161] },
      ],
      registry: { chainId: 1, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as Address },
      feeds: {},
      now: () => time,
      issue: false,
      freshnessWindowS: 3600,
      log: quiet,
    });
  }

  it("a chain whose RPC now answers another chain id fails with its sources; nothing of it is written; the other chain goes on", async () => {
    const t1 = T0 + 100;
    const first = await passAt(t1, { 1: mainnet.client, 42161: arbitrum.client });
    expect(first.sources["chain:1"], JSON.stringify(first.sources)).to.deep.include({ ok: true, rows: 1 });
    expect(first.sources["chain:42161"]).to.deep.include({ ok: true, rows: 1 });
    const before = await getPool(store.db, 1, mainnet.pair.toLowerCase());
    expect(before!.depth_usd).to.be.closeTo(2_000_000, 1);
    expect(before!.depth_observed_at).to.equal(t1);

    // Chain 42161's pool loses half its depth; then RPC_URL_1 is re-pointed at chain 42161's endpoint.
    await arbitrum.removeLiquidity(0.5);
    const t2 = T0 + 400;
    const second = await passAt(t2, { 1: arbitrum.client, 42161: arbitrum.client });

    const cause = "RPC_URL_1 answers eth_chainId 42161, not 1";
    expect(second.status).to.equal("partial");
    expect(second.sources["chain:1"]).to.deep.equal({ ok: false, rows: 0, error: cause });
    expect(second.sources["swaps:1"]).to.deep.equal({ ok: false, rows: 0, error: cause });
    expect(second.sources.registry).to.deep.equal({ ok: false, rows: 0, error: cause });
    expect(second.sources["chain:42161"]).to.deep.include({ ok: true, rows: 1 });
    expect(second.sources["swaps:42161"]).to.deep.include({ ok: true });

    const after = await getPool(store.db, 1, mainnet.pair.toLowerCase());
    expect(after!.depth_usd).to.equal(before!.depth_usd);
    expect(after!.depth_observed_at).to.equal(t1);
    expect(after!.depth_block).to.equal(before!.depth_block);
    const other = await getPool(store.db, 42161, arbitrum.pair.toLowerCase());
    expect(other!.depth_usd).to.be.closeTo(1_000_000, 10);
    expect(other!.depth_observed_at).to.equal(t2);
  });
});
