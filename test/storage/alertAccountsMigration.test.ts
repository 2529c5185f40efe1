import { expect } from "chai";
import { Migrator, sql } from "kysely";
import { migrations } from "../../src/storage/migrations";
import type { Store } from "../../src/storage/openStore";
import { forEachBackend } from "../helpers/storage/backends";

const T = 1_767_225_600;
const WALLET = "0x" + "ab".repeat(20);

/** 007_alert_accounts on a store that already holds subscriptions: the account is filled in, revoked keys paused. */
describe("migration 007_alert_accounts", function () {
  forEachBackend((openFresh) => {
    let store: Store;
    beforeEach(async function () {
      store = await openFresh();
    });
    afterEach(async function () {
      await store.close();
    });

    it("gives each subscription its account and pauses those of keys revoked before it", async function () {
      const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
      const down = await migrator.migrateTo("006_owner_indexes");
      expect(down.error).to.equal(undefined);
      const keys = [
        { id: "wk", owner: WALLET, revoked_at: null },
        { id: "wk-revoked", owner: WALLET, revoked_at: T },
        { id: "env-key", owner: "env", revoked_at: null },
      ];
      for (const [i, key] of keys.entries()) {
        await sql`insert into api_keys (id, key_sha256, owner, label, created_at, revoked_at)
          values (${key.id}, ${String(i).repeat(64)}, ${key.owner}, ${null}, ${T}, ${key.revoked_at})`.execute(
          store.db,
        );
      }
      const owners = ["key:wk", "key:wk-revoked", "key:env-key", `wallet:${WALLET}`, "key:unknown"];
      for (const [i, owner] of owners.entries()) {
        await sql`insert into alert_subscriptions (id, owner, url, secret, state, created_at)
          values (${`s${i}`}, ${owner}, ${"https://hooks.example.com/"}, ${"whsec_x"}, ${"active"}, ${T})`.execute(
          store.db,
        );
      }
      const up = await migrator.migrateToLatest();
      expect(up.error).to.equal(undefined);
      const rows = await store.db
        .selectFrom("alert_subscriptions")
        .select(["id", "account", "state", "paused_reason"])
        .orderBy("id")
        .execute();
      expect(rows).to.deep.equal([
        { id: "s0", account: `wallet:${WALLET}`, state: "active", paused_reason: null },
        { id: "s1", account: `wallet:${WALLET}`, state: "paused", paused_reason: "its API key was revoked" },
        { id: "s2", account: "key:env-key", state: "active", paused_reason: null },
        { id: "s3", account: `wallet:${WALLET}`, state: "active", paused_reason: null },
        { id: "s4", account: "key:unknown", state: "active", paused_reason: null },
      ]);
    });
  });
});
