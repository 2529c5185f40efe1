import { expect } from "chai";
import { keccak256, toHex, type Address } from "viem";
import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { hardhatArtifact } from "../../src/chain/artifacts";
import { LOCAL_CHAIN_ACCOUNTS } from "../../src/chain/startLocalChain";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import { listActivityByKindPrefix } from "../../src/storage/activity";
import { insertAlertSubscription } from "../../src/storage/alertSubscriptions";
import { getLogCursors } from "../../src/storage/logCursors";
import { openStore, type Store } from "../../src/storage/openStore";
import { pruneStore } from "../../src/storage/retention";
import { freshPostgresUrl } from "../../testkit/postgres";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const DAY = 86_400;
const HOUR = 3600;
const EPOCH = Date.UTC(2026, 10, 1) / 1000;
const quiet = () => undefined;
const admin = LOCAL_CHAIN_ACCOUNTS[0].address;
const [alice, bob, carol] = [1, 2, 4].map((i) => LOCAL_CHAIN_ACCOUNTS[i].address);
const digest = (text: string) => keccak256(toHex(text));

describe("registry events after a reorganisation", function () {
  let market: LocalMarket;
  let temp: TempStore;
  let store: Store;

  before(async () => {
    market = await startLocalMarket({ genesisTime: EPOCH - 3 * DAY });
  });
  after(async () => market?.stop());
  beforeEach(async () => {
    temp = await openTempStore({ prefix: "registry-reorg-" });
    store = temp.store;
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  async function passAt(time: number, registry: Address) {
    await market.mineAt(time);
    return runIngestionPass({
      store,
      pools: market.pools,
      chains: [{ chainId: 1, client: market.client }],
      feeds: {},
      now: () => time,
      issue: false,
      freshnessWindowS: 3600,
      registry: { chainId: 1, address: registry },
      log: quiet,
    });
  }

  /** Sends one registry call at block time `time`. */
  async function call(registry: Address, time: number, from: Address, functionName: string, args: unknown[]) {
    await market.driver.request("evm_setNextBlockTimestamp", [toHex(time)]);
    const value = functionName === "register" ? 10n ** 18n : undefined;
    return market.driver.write({ from, address: registry, abi: attestationRegistryAbi, functionName, args, value });
  }

  /** The stored registry events: kind, who, digest, block and transaction. */
  async function registryEvents() {
    return (await listActivityByKindPrefix(store.db, "registry.")).map((row) => {
      const { data } = row;
      return {
        id: row.id,
        kind: row.kind,
        attester: data.attester,
        digest: data.digest,
        block: data.blockNumber,
        tx: data.transactionHash,
      };
    });
  }

  /** The outbox rows of the subscription, by event id. */
  async function outbox() {
    const rows = await store.db.selectFrom("alert_outbox").select(["event_id", "status"]).orderBy("event_id").execute();
    return rows.map((row) => [Number(row.event_id), row.status]);
  }

  async function replaceAfterReorg(d: number) {
    await market.mineAt(d);
    const artifact = hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry");
    const registry = await market.driver.deploy({ from: admin, artifact, args: [admin, 10n ** 18n, 86_400n] });
    await store.db.transaction().execute((trx) =>
      insertAlertSubscription(trx, {
        id: "sub_reorg",
        owner: "0xowner",
        account: "0xowner",
        url: "http://127.0.0.1:9/hook",
        secret: "whsec_test",
        kinds: ["registry.Registered", "registry.Revoked"],
        now: d,
      }),
    );
    // Before the fork: alice registers; a pass records it.
    const kept = await call(registry, d + 60, alice, "register", [alice]);
    await passAt(d + HOUR, registry);
    const first = await registryEvents();
    // The deployment's OwnershipTransferred, then alice's registration.
    expect(first.map((e) => [e.kind, e.attester, e.tx])).to.deep.equal([
      ["registry.OwnershipTransferred", undefined, first[0].tx],
      ["registry.Registered", alice.toLowerCase(), kept],
    ]);

    const snapshot = await market.driver.request("evm_snapshot", []);
    // The branch that will be orphaned: bob registers, alice revokes a digest; a pass records both.
    const orphaned = [
      await call(registry, d + HOUR + 60, bob, "register", [bob]),
      await call(registry, d + HOUR + 120, alice, "revoke", [digest("orphaned")]),
    ];
    await passAt(d + 2 * HOUR, registry);
    const second = await registryEvents();
    expect(second.map((e) => e.tx)).to.deep.equal([first[0].tx, kept, ...orphaned]);
    // One delivery of an orphaned event was already sent: it cannot be unsent.
    const sentId = second[2].id;
    await store.db.updateTable("alert_outbox").set({ status: "delivered" }).where("event_id", "=", sentId).execute();

    // The chain reorganises from the snapshot: other events, and more blocks than the orphaned branch had.
    expect(await market.driver.request("evm_revert", [snapshot])).to.equal(true);
    const canonical = [
      await call(registry, d + HOUR + 90, carol, "register", [carol]),
      await call(registry, d + HOUR + 150, bob, "revoke", [digest("canonical")]),
    ];
    for (let i = 1; i <= 14; i++) await market.mineAt(d + 2 * HOUR + i);
    const report = await passAt(d + 3 * HOUR, registry);
    expect(report.sources.registry).to.deep.include({ ok: true });

    // Exactly the canonical chain's events: the pre-fork one kept once (same id), the orphaned ones gone, the new once.
    const third = await registryEvents();
    expect(third.map((e) => [e.kind, e.attester, e.digest ?? null, e.tx])).to.deep.equal([
      ["registry.OwnershipTransferred", undefined, null, first[0].tx],
      ["registry.Registered", alice.toLowerCase(), null, kept],
      ["registry.Registered", carol.toLowerCase(), null, canonical[0]],
      ["registry.Revoked", bob.toLowerCase(), digest("canonical"), canonical[1]],
    ]);
    expect(third.slice(0, 2).map((e) => e.id)).to.deep.equal(first.map((e) => e.id));
    // Pending deliveries of the removed events are gone; the sent one stays; the new events are queued once.
    expect(await outbox()).to.deep.equal([
      [first[1].id, "pending"],
      [sentId, "delivered"],
      [third[2].id, "pending"],
      [third[3].id, "pending"],
    ]);
    const head = await market.driver.latestBlock();
    const cursor = (await getLogCursors(store.db, { source: "registry", chainId: 1 })).get(registry.toLowerCase())!;
    expect(cursor.nextBlock).to.equal(head.number + 1n);
    expect(cursor.blockHash).to.equal((await market.client.getBlock({ blockNumber: head.number })).hash);

    // The sent delivery of the removed event is pruned at the next retention run; a kept event's is kept.
    await store.db
      .updateTable("alert_outbox")
      .set({ status: "delivered" })
      .where("event_id", "=", first[1].id)
      .execute();
    const pruned = await pruneStore(store.db, { now: d + 3 * HOUR, retentionDays: 90 });
    expect(pruned.alert_outbox).to.equal(1);
    expect((await outbox()).map(([id]) => id)).to.deep.equal([first[1].id, third[2].id, third[3].id]);

    // A later pass finds the cursor's hash canonical and adds nothing.
    await passAt(d + 4 * HOUR, registry);
    expect((await registryEvents()).map((e) => e.id)).to.deep.equal(third.map((e) => e.id));
  }

  it("replaces the registry events of orphaned blocks, never doubling one, and drops their unsent deliveries", async () => {
    await replaceAfterReorg(EPOCH);
  });

  it("replaces them on PostgreSQL too", async () => {
    const sqlite = store;
    store = await openStore({ databaseUrl: await freshPostgresUrl() });
    try {
      await replaceAfterReorg(EPOCH + 5 * DAY);
    } finally {
      await store.close();
      store = sqlite;
    }
  });
});
