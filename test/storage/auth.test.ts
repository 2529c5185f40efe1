import { expect } from "chai";
import { sql } from "kysely";
import { type Store } from "../../src/storage/openStore";
import {
  deleteExpiredSessions,
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionRow,
} from "../../src/storage/sessions";
import { consumeSiweNonce, deleteExpiredSiweNonces, insertSiweNonce } from "../../src/storage/siweNonces";
import { forEachBackend } from "../helpers/storage/backends";

const T = 1_767_225_600;
const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** The sign-in tables behave the same on both dialects. */
function authTablesSuite(open: () => Promise<Store>) {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe("siwe_nonces", () => {
    it("gives a nonce back once: the second consume finds nothing", async () => {
      await insertSiweNonce(store.db, { nonce: "a".repeat(32), createdAt: T, expiresAt: T + 600 });
      expect(await consumeSiweNonce(store.db, "a".repeat(32))).to.deep.equal({ createdAt: T, expiresAt: T + 600 });
      expect(await consumeSiweNonce(store.db, "a".repeat(32))).to.equal(undefined);
      expect(await consumeSiweNonce(store.db, "b".repeat(32))).to.equal(undefined);
    });

    it("gives a nonce to exactly one of 8 concurrent consumers", async () => {
      await insertSiweNonce(store.db, { nonce: "c".repeat(32), createdAt: T, expiresAt: T + 600 });
      const results = await Promise.all(Array.from({ length: 8 }, () => consumeSiweNonce(store.db, "c".repeat(32))));
      expect(results.filter((result) => result !== undefined)).to.have.length(1);
    });

    it("deletes the expired nonces only (expiry at or before now)", async () => {
      await insertSiweNonce(store.db, { nonce: "d".repeat(32), createdAt: T - 600, expiresAt: T });
      await insertSiweNonce(store.db, { nonce: "e".repeat(32), createdAt: T - 599, expiresAt: T + 1 });
      expect(await deleteExpiredSiweNonces(store.db, T)).to.equal(1);
      expect(await consumeSiweNonce(store.db, "d".repeat(32))).to.equal(undefined);
      expect(await consumeSiweNonce(store.db, "e".repeat(32))).to.deep.equal({ createdAt: T - 599, expiresAt: T + 1 });
    });
  });

  describe("sessions", () => {
    const row: SessionRow = {
      idSha256: "1".repeat(64),
      address: ADDRESS,
      chainId: 8453,
      createdAt: T,
      expiresAt: T + 60,
    };

    it("stores the address lower case and finds the session while it lives (expiry after now)", async () => {
      await insertSession(store.db, row);
      const found = await findLiveSession(store.db, { idSha256: row.idSha256, now: T + 59 });
      expect(found).to.deep.equal({ ...row, address: ADDRESS.toLowerCase() });
      expect(typeof found!.expiresAt).to.equal("number");
      expect(await findLiveSession(store.db, { idSha256: row.idSha256, now: T + 60 })).to.equal(undefined);
      expect(await findLiveSession(store.db, { idSha256: "2".repeat(64), now: T })).to.equal(undefined);
    });

    it("deletes one session, and the expired ones", async () => {
      await insertSession(store.db, row);
      await insertSession(store.db, { ...row, idSha256: "3".repeat(64), expiresAt: T + 3600 });
      expect(await deleteSession(store.db, row.idSha256)).to.equal(true);
      expect(await deleteSession(store.db, row.idSha256)).to.equal(false);
      expect(await findLiveSession(store.db, { idSha256: row.idSha256, now: T })).to.equal(undefined);
      expect(await deleteExpiredSessions(store.db, T + 3600)).to.equal(1);
      const left = await store.db
        .selectFrom("sessions")
        .select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).to.equal(0);
    });

    it("refuses a second session with the same id hash", async () => {
      await insertSession(store.db, row);
      let failed = false;
      try {
        await insertSession(store.db, row);
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });
}

describe("sign-in storage (migration 004)", function () {
  forEachBackend(authTablesSuite);
});
