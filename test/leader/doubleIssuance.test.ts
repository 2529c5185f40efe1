import { createLocalSigner } from "../../src/attest/signer";
import { expect } from "chai";
import type { Kysely } from "kysely";
import type { Hex } from "viem";
import { issueAttestations } from "../../src/attest/issueAttestations";
import { listActivity } from "../../src/storage/activity";
import { countAttestations, getLatestAttestation } from "../../src/storage/attestations";
import { openStore, type Store } from "../../src/storage/openStore";
import type { Database } from "../../src/storage/schema";
import { DAY, NOW, POOL, seedSteadyPool } from "../helpers/attest/steadyPool";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
/** 41 days of steady depth and a fresh observation: the pool qualifies for an attestation at NOW. */
const seed = (db: Kysely<Database>) => seedSteadyPool(db, { now: NOW, block: String });

/** `db` whose transactions first wait for `before`: the leader using it has read and signed, and writes after it. */
function writingAfter(db: Kysely<Database>, before: () => Promise<unknown>): Kysely<Database> {
  return new Proxy(db, {
    get(target, property) {
      if (property !== "transaction") {
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => ({
        execute: async <T>(fn: (trx: Kysely<Database>) => Promise<T>) => {
          await before();
          return target.transaction().execute(fn);
        },
      });
    },
  });
}

for (const backend of ["SQLite", "PostgreSQL"] as const) {
  describe(`two leaders overlapping issue the same inputs once (${backend})`, function () {
    let first: Store;
    let second: Store;
    let temp: TempStore | null = null;
    before(async function () {
      this.timeout(60_000);
      if (backend === "PostgreSQL") await sharedPostgres();
    });
    beforeEach(async () => {
      if (backend === "PostgreSQL") {
        const url = await freshPostgresUrl();
        first = await openStore({ databaseUrl: url });
        second = await openStore({ databaseUrl: url });
      } else {
        temp = await openTempStore({ prefix: "double-" });
        first = temp.store;
        second = first;
      }
      await seed(first.db);
    });
    afterEach(async () => {
      if (temp !== null) await temp.cleanup();
      else await first.close();
      if (second !== first) await second.close();
    });

    it("the leader that writes second stores nothing: one row, one event, its outcome kept", async () => {
      const issue = (db: Kysely<Database>, now: number, freshnessWindowS = 3600) =>
        issueAttestations({ db, pools: [POOL], signer: createLocalSigner(KEY), lifetimeS: DAY, now, freshnessWindowS });
      // The second leader reads and signs at NOW; the first issues (a second later, so another message) and commits
      // before the second's write transaction begins.
      let firstOutcomes: Awaited<ReturnType<typeof issue>> = [];
      const secondOutcomes = await issue(
        writingAfter(second.db, async () => (firstOutcomes = await issue(first.db, NOW + 1))),
        NOW,
      );
      expect(firstOutcomes.map((o) => o.action)).to.deep.equal(["issued"]);
      expect(secondOutcomes).to.deep.equal([
        {
          chainId: 8453,
          address: POOL.address,
          action: "kept",
          reason: "another pass issued from the same state first",
        },
      ]);
      expect(await countAttestations(second.db)).to.equal(1);
      const row = (await getLatestAttestation(second.db, 8453, POOL.address))!;
      expect(row).to.include({ issued_at: NOW + 1, supersedes: "none" });
      const issued = await listActivity(second.db, { limit: 100, beforeId: null, kinds: ["attestation.issued"] });
      expect(issued).to.have.length(1);

      // The next attestation (the first expired) names the one it supersedes.
      const [next] = await issue(first.db, NOW + 2 * DAY, 3 * DAY);
      expect(next.action).to.equal("issued");
      expect(await getLatestAttestation(first.db, 8453, POOL.address)).to.include({ supersedes: row.id });
    });
  });
}
