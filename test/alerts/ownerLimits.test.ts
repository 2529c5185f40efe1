import { expect } from "chai";
import { createSubscription, MAX_SUBSCRIPTIONS_PER_OWNER } from "../../src/alerts/createSubscription";
import { deliverDueAlerts, type AlertDeliveryContext } from "../../src/alerts/deliverAlert";
import { deleteSubscription } from "../../src/alerts/deleteSubscription";
import { listSubscriptions } from "../../src/alerts/listSubscriptions";
import { resumeSubscription } from "../../src/alerts/resumeSubscription";
import { keyOwner, walletOwner } from "../../src/alerts/subscriptionOwner";
import { AlertSubscriptionKeyRevokedError, AlertSubscriptionLimitError } from "../../src/errors/alerts";
import { TooManyApiKeysError } from "../../src/errors/auth";
import { appendActivity } from "../../src/storage/activity";
import { listAlertOutbox } from "../../src/storage/alertOutbox";
import { findApiKeyBySha256, listApiKeys } from "../../src/storage/apiKeys";
import type { Store } from "../../src/storage/openStore";
import { createApiKey } from "../../src/write/createApiKey";
import { hashApiKey } from "../../src/write/hashApiKey";
import { registerConfigApiKeys } from "../../src/write/registerConfigApiKeys";
import { revokeApiKey } from "../../src/write/revokeApiKey";
import { startReceiver, type Receiver } from "../helpers/alerts/receiver";
import { forEachBackend } from "../helpers/storage/backends";

const T = 1_767_225_600;
const WALLET = "0x" + "a1".repeat(20);
const OTHER_WALLET = "0x" + "b2".repeat(20);
const CONFIG_KEY = "k".repeat(32) + "-owner-limits-config";

/** Settles every promise; the values of those fulfilled and the errors of those rejected. */
async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; errors: unknown[] }> {
  const results = await Promise.allSettled(promises);
  return {
    ok: results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])),
    errors: results.flatMap((r) => (r.status === "rejected" ? [r.reason] : [])),
  };
}

/**
 * docs/security.md#keys-subscriptions-and-alerts: the key cap per wallet, the subscription cap per owner (a wallet with
 * all its keys), revoked keys.
 */
describe("owner limits: keys per wallet, subscriptions per owner, revoked keys", function () {
  forEachBackend((openFresh) => {
    let store: Store;
    let receiver: Receiver | undefined;
    beforeEach(async function () {
      store = await openFresh();
    });
    afterEach(async function () {
      await receiver?.close();
      receiver = undefined;
      await store.close();
    });

    const context = () => ({ db: store.db, now: () => T });
    const mintKey = (owner = WALLET, maxKeys?: number) => createApiKey(context(), { owner, label: null, maxKeys });
    let n = 0;
    const subscribe = (owner: string, url = `http://127.0.0.1:9/s${n++}`) =>
      createSubscription({ db: store.db, owner, url, kinds: ["pool.stale"], allowPrivateTargets: true, now: () => T });
    const activeKeys = async (owner: string) =>
      (await listApiKeys(store.db, owner)).filter((key) => key.revoked_at === null).length;

    it("a wallet holds at most 10 keys: the 11th is refused (TOO_MANY_KEYS); revoking one frees a slot", async function () {
      const keys = [];
      for (let i = 0; i < 10; i++) keys.push(await mintKey());
      const refused = await mintKey().catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(TooManyApiKeysError);
      expect(refused).to.include({ code: "TOO_MANY_KEYS", limit: 10 });
      // Another wallet is not affected.
      await mintKey(OTHER_WALLET);
      expect(await revokeApiKey(context(), { id: keys[3].id, owner: WALLET })).to.equal(true);
      await mintKey();
      expect(await mintKey().catch((error: unknown) => error)).to.be.instanceOf(TooManyApiKeysError);
      expect(await activeKeys(WALLET)).to.equal(10);
      // MAX_KEYS_PER_WALLET is the route's maxKeys.
      expect(await mintKey(OTHER_WALLET, 1).catch((error: unknown) => error)).to.be.instanceOf(TooManyApiKeysError);
    });

    it("create/revoke cycles are bounded: at most 20 keys created in 24 hours, revoked ones included", async function () {
      for (let i = 0; i < 20; i++) {
        const key = await mintKey();
        expect(await revokeApiKey(context(), { id: key.id, owner: WALLET })).to.equal(true);
      }
      const refused = await mintKey().catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(TooManyApiKeysError);
      expect((refused as TooManyApiKeysError).shortMessage).to.match(/at most 20 API keys in 24 hours/);
      expect(await activeKeys(WALLET)).to.equal(0);
      expect((await listApiKeys(store.db, WALLET)).length, "the table did not grow past the bound").to.equal(20);
    });

    it("concurrent creates cannot pass the key cap", async function () {
      for (let i = 0; i < 7; i++) await mintKey();
      const { ok, errors } = await settle(Array.from({ length: 6 }, () => mintKey()));
      expect(ok).to.have.length(3);
      expect(errors).to.have.length(3);
      for (const error of errors) expect(error).to.be.instanceOf(TooManyApiKeysError);
      expect(await activeKeys(WALLET)).to.equal(10);
    });

    it("a wallet with all its keys is one owner: 3 keys × 7 subscriptions, the 21st is refused whichever key or the wallet makes it", async function () {
      expect(MAX_SUBSCRIPTIONS_PER_OWNER).to.equal(20);
      const keys = [await mintKey(), await mintKey(), await mintKey()];
      for (const [i, key] of keys.entries()) {
        for (let j = 0; j < (i < 2 ? 7 : 6); j++) await subscribe(keyOwner(key.id));
      }
      for (const owner of [keyOwner(keys[2].id), keyOwner(keys[0].id), walletOwner(WALLET)]) {
        const refused = await subscribe(owner).catch((error: unknown) => error);
        expect(refused, owner).to.be.instanceOf(AlertSubscriptionLimitError);
        expect(refused).to.include({ code: "ALERT_SUBSCRIPTION_LIMIT", limit: 20 });
      }
      // A fresh key of the same wallet is no way round it; another wallet and its keys are not affected.
      const fresh = await mintKey();
      expect(await subscribe(keyOwner(fresh.id)).catch((error: unknown) => error)).to.be.instanceOf(
        AlertSubscriptionLimitError,
      );
      await subscribe(walletOwner(OTHER_WALLET));
      await subscribe(keyOwner((await mintKey(OTHER_WALLET)).id));
      // The wallet sees all 20 (a key sees its own) and deleting one frees a slot.
      const mine = await listSubscriptions({ db: store.db, owner: walletOwner(WALLET) });
      expect(mine).to.have.length(20);
      expect(await listSubscriptions({ db: store.db, owner: keyOwner(keys[0].id) })).to.have.length(7);
      await deleteSubscription({ db: store.db, owner: walletOwner(WALLET), id: mine[0].id });
      await subscribe(keyOwner(keys[2].id));
      // Revoking a key frees no slot: its subscriptions are kept (paused) until deleted.
      await revokeApiKey(context(), { id: keys[1].id, owner: WALLET });
      expect(await subscribe(walletOwner(WALLET)).catch((error: unknown) => error)).to.be.instanceOf(
        AlertSubscriptionLimitError,
      );
    });

    it("concurrent subscribes through several of a wallet's keys cannot pass the cap", async function () {
      const keys = [await mintKey(), await mintKey(), await mintKey()];
      for (let i = 0; i < 17; i++) await subscribe(keyOwner(keys[i % 3].id));
      const owners = [...keys.map((key) => keyOwner(key.id)), walletOwner(WALLET)];
      const { ok, errors } = await settle(owners.flatMap((owner) => [subscribe(owner), subscribe(owner)]));
      expect(ok).to.have.length(3);
      expect(errors).to.have.length(5);
      for (const error of errors) expect(error).to.be.instanceOf(AlertSubscriptionLimitError);
      expect(await listSubscriptions({ db: store.db, owner: walletOwner(WALLET) })).to.have.length(20);
    });

    it("a configured key (API_KEYS) is an owner alone: 20 subscriptions, the 21st refused", async function () {
      await registerConfigApiKeys(context(), { keys: [{ key: CONFIG_KEY, label: "API_KEYS #1" }] });
      const configured = (await findApiKeyBySha256(store.db, hashApiKey({ key: CONFIG_KEY })))!;
      const owner = keyOwner(configured.id);
      for (let i = 0; i < 20; i++) await subscribe(owner);
      expect(await subscribe(owner).catch((error: unknown) => error)).to.be.instanceOf(AlertSubscriptionLimitError);
      await subscribe(walletOwner(WALLET));
    });

    it("revoking a key pauses its subscriptions: still listed for the wallet, not resumable, deletable, nothing delivered", async function () {
      receiver = await startReceiver();
      const key = await mintKey();
      const kept = await mintKey();
      const a = await subscribe(keyOwner(key.id), `${receiver.url}?a`);
      const b = await subscribe(keyOwner(key.id), `${receiver.url}?b`);
      const other = await subscribe(keyOwner(kept.id), `${receiver.url}?kept`);
      await appendActivity(store.db, [
        { kind: "pool.stale", at: T, summary: "queued before the revocation", data: {} },
      ]);
      expect(await revokeApiKey(context(), { id: key.id, owner: WALLET })).to.equal(true);
      await appendActivity(store.db, [{ kind: "pool.stale", at: T + 1, summary: "after the revocation", data: {} }]);

      const listed = await listSubscriptions({ db: store.db, owner: walletOwner(WALLET) });
      // Same second: listed by id; compared as a set.
      expect(listed.map((s) => [s.id, s.state, s.pausedReason]).sort()).to.deep.equal(
        [
          [a.id, "paused", "its API key was revoked"],
          [b.id, "paused", "its API key was revoked"],
          [other.id, "active", null],
        ].sort(),
      );
      // No new outbox row while paused; the row queued before is held, not sent.
      expect((await listAlertOutbox(store.db, a.id)).map((row) => row.status)).to.deep.equal(["pending"]);
      const delivery: AlertDeliveryContext = {
        db: store.db,
        retryScheduleS: [1],
        allowPrivateTargets: true,
        timeoutMs: 2000,
        maxResponseBytes: 1024,
        leaseMs: 30_000,
        nowMs: Date.now,
        random: Math.random,
        workerId: "test",
      };
      for (let pass = 0; pass < 3; pass++) await deliverDueAlerts(delivery);
      expect(receiver.received.map((r) => r.url)).to.deep.equal(["/hook?kept", "/hook?kept"]);

      const resumed = await resumeSubscription({ db: store.db, owner: walletOwner(WALLET), id: a.id }).catch(
        (error: unknown) => error,
      );
      expect(resumed).to.be.instanceOf(AlertSubscriptionKeyRevokedError);
      expect(resumed).to.include({ code: "ALERT_SUBSCRIPTION_KEY_REVOKED" });
      const again = await listSubscriptions({ db: store.db, owner: walletOwner(WALLET) });
      expect(again.find((s) => s.id === a.id)!.state).to.equal("paused");
      // Another wallet neither sees nor deletes them; the wallet deletes them.
      expect(await listSubscriptions({ db: store.db, owner: walletOwner(OTHER_WALLET) })).to.deep.equal([]);
      const theirs = await deleteSubscription({ db: store.db, owner: walletOwner(OTHER_WALLET), id: a.id }).catch(
        (error: unknown) => error,
      );
      expect(theirs).to.include({ code: "ALERT_SUBSCRIPTION_NOT_FOUND" });
      await deleteSubscription({ db: store.db, owner: walletOwner(WALLET), id: a.id });
      await deleteSubscription({ db: store.db, owner: walletOwner(WALLET), id: b.id });
      expect((await listSubscriptions({ db: store.db, owner: walletOwner(WALLET) })).map((s) => s.id)).to.deep.equal([
        other.id,
      ]);
      for (let pass = 0; pass < 2; pass++) await deliverDueAlerts(delivery);
      expect(receiver.received).to.have.length(2);
    });

    it("a configured key survives a start without it; revoked explicitly, its subscriptions pause for good", async function () {
      await registerConfigApiKeys(context(), { keys: [{ key: CONFIG_KEY, label: "API_KEYS #1" }] });
      const configured = (await findApiKeyBySha256(store.db, hashApiKey({ key: CONFIG_KEY })))!;
      const owner = keyOwner(configured.id);
      const created = await subscribe(owner);
      await registerConfigApiKeys(context(), { keys: [] });
      expect((await listSubscriptions({ db: store.db, owner }))[0]).to.include({ state: "active" });
      expect(await revokeApiKey(context(), { id: configured.id, owner: "env" })).to.equal(true);
      expect((await listSubscriptions({ db: store.db, owner }))[0]).to.include({
        state: "paused",
        pausedReason: "its API key was revoked",
      });
      // Given again at a start, it stays revoked: the subscription cannot be resumed.
      await registerConfigApiKeys(context(), { keys: [{ key: CONFIG_KEY, label: "API_KEYS #1" }] });
      const resumed = await resumeSubscription({ db: store.db, owner, id: created.id }).catch(
        (error: unknown) => error,
      );
      expect(resumed).to.be.instanceOf(AlertSubscriptionKeyRevokedError);
    });
  });
});
