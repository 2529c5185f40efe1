import crypto, { createHash } from "node:crypto";
import { expect } from "chai";
import { sql } from "kysely";
import { UnauthorizedError } from "../../src/errors/auth";
import { InvalidPoolIdError } from "../../src/errors/pool";
import { AmbiguousPoolError, PoolNotFoundError } from "../../src/errors/poolLookup";
import {
  ChainMismatchError,
  ChainNotTrackedError,
  IdempotencyKeyReusedError,
  InvalidIdempotencyKeyError,
  InvalidLiquidityRequestError,
} from "../../src/errors/write";
import { listActivity } from "../../src/storage/activity";
import { findApiKeyBySha256, insertApiKey, listApiKeys } from "../../src/storage/apiKeys";
import { claimIdempotencyKey, findIdempotencyRecord } from "../../src/storage/idempotency";
import {
  countLiquidityRequests,
  getLiquidityRequest,
  listLiquidityRequests,
} from "../../src/storage/liquidityRequests";
import type { Store } from "../../src/storage/openStore";
import { upsertPool } from "../../src/storage/pools";
import { authenticateApiKey } from "../../src/write/authenticateApiKey";
import { createApiKey } from "../../src/write/createApiKey";
import { createLiquidityRequest } from "../../src/write/createLiquidityRequest";
import { hashApiKey } from "../../src/write/hashApiKey";
import { registerConfigApiKeys } from "../../src/write/registerConfigApiKeys";
import { revokeApiKey } from "../../src/write/revokeApiKey";
import { forEachBackend } from "../helpers/storage/backends";
import { rejection } from "../helpers/rejection";

const NOW = 1_767_225_600;
const now = () => NOW;
const KEY_A = "a".repeat(20) + "-test-key-A-0123456789";
const KEY_B = "b".repeat(20) + "-test-key-B-0123456789";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const POOL = "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc";
const SHARED = "0x1111111111111111111111111111111111111111";
const ASSET = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const BODY = { chainId: 1, pool: POOL, amountUsd: 250_000, horizonDays: 30 };

async function seedPools(store: Store): Promise<void> {
  const pool = { kind: "amm" as const, symbol: "X", protocol: "uniswap-v2", values: {}, now: NOW };
  await upsertPool(store.db, { chainId: 1, address: POOL, ...pool });
  await upsertPool(store.db, { chainId: 42161, address: SHARED, ...pool });
  await upsertPool(store.db, { chainId: 8453, address: SHARED, ...pool });
}

/** Every text cell of every table: where a key could leak to. */
async function everyStoredText(store: Store): Promise<string> {
  const tables = ["api_keys", "liquidity_requests", "idempotency_keys", "activity_events"] as const;
  const rows = await Promise.all(tables.map((table) => store.db.selectFrom(table).selectAll().execute()));
  return JSON.stringify(rows);
}

/** The same behaviour on both dialects: one query layer, two databases. */
function keyedWriteSuite(open: () => Promise<Store>) {
  let store: Store;
  let keyA: string;
  beforeEach(async () => {
    store = await open();
    await seedPools(store);
    await registerConfigApiKeys({ db: store.db, now }, { keys: [{ key: KEY_A, label: "API_KEYS #1" }] });
    keyA = (await authenticateApiKey(store, { key: KEY_A })).id;
  });
  afterEach(async () => {
    await store.close();
  });

  describe("API keys", () => {
    it("stores the key's SHA-256 only (hex of the UTF-8 bytes), never the key", async () => {
      expect(hashApiKey({ key: "abc" })).to.equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      const row = await findApiKeyBySha256(store.db, createHash("sha256").update(KEY_A).digest("hex"));
      expect(row).to.include({ id: keyA, owner: "env", label: "API_KEYS #1", revoked_at: null });
      expect(await everyStoredText(store)).to.not.include(KEY_A);
    });

    it("authenticates a configured key and refuses a missing, malformed, unknown or revoked one", async () => {
      expect(await authenticateApiKey(store, { key: KEY_A })).to.deep.equal({
        id: keyA,
        owner: "env",
        label: "API_KEYS #1",
      });
      const problems: string[] = [];
      for (const key of [undefined, "", "short", `${KEY_A} `, "é".repeat(40), KEY_B]) {
        const error = await rejection(authenticateApiKey(store, { key }));
        expect(error).to.be.instanceOf(UnauthorizedError);
        problems.push((error as UnauthorizedError).problem);
      }
      expect(problems).to.deep.equal(["missing", "missing", "malformed", "malformed", "malformed", "unknown"]);
    });

    it("compares the digests with crypto.timingSafeEqual (32 bytes each)", async () => {
      const original = crypto.timingSafeEqual;
      const calls: number[][] = [];
      crypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push([a.byteLength, b.byteLength]);
        return original(a, b);
      };
      try {
        await authenticateApiKey(store, { key: KEY_A });
      } finally {
        crypto.timingSafeEqual = original;
      }
      expect(calls).to.deep.equal([[32, 32]]);
    });

    it("adds the configured keys and only adds: a start never revokes, never restores, keeps the first label", async () => {
      const keys = (...list: string[]) => ({ keys: list.map((key, i) => ({ key, label: `API_KEYS #${i + 1}` })) });
      expect(await registerConfigApiKeys({ db: store.db, now }, keys(KEY_A, KEY_B))).to.deep.equal({
        added: 1,
        kept: 1,
        revoked: 0,
      });
      const wallet = await createApiKey({ db: store.db, now }, { owner: WALLET });
      // A process configured with B alone (or with none) leaves A working: another process may still name it.
      expect(await registerConfigApiKeys({ db: store.db, now }, keys(KEY_B))).to.deep.equal({
        added: 0,
        kept: 1,
        revoked: 0,
      });
      expect(await registerConfigApiKeys({ db: store.db, now }, keys())).to.deep.equal({
        added: 0,
        kept: 0,
        revoked: 0,
      });
      expect((await authenticateApiKey(store, { key: KEY_A })).id).to.equal(keyA);
      expect((await authenticateApiKey(store, { key: wallet.key })).id).to.equal(wallet.id);
      // B was first added as API_KEYS #2; given first now, it keeps that label.
      expect((await authenticateApiKey(store, { key: KEY_B })).label).to.equal("API_KEYS #2");
      // Revoked explicitly (attest keys revoke), a key given again at a start stays revoked and is counted.
      expect(await revokeApiKey({ db: store.db, now }, { id: keyA, owner: "env" })).to.equal(true);
      expect(await registerConfigApiKeys({ db: store.db, now }, keys(KEY_A, KEY_B))).to.deep.equal({
        added: 0,
        kept: 1,
        revoked: 1,
      });
      expect(((await rejection(authenticateApiKey(store, { key: KEY_A }))) as UnauthorizedError).problem).to.equal(
        "revoked",
      );
    });

    it("creates a wallet key (shown once, hash stored) that only its owner can revoke", async () => {
      const created = await createApiKey({ db: store.db, now }, { owner: WALLET, label: "bot" });
      expect(created.key).to.match(/^ak_[A-Za-z0-9_-]{43}$/);
      expect(created.owner).to.equal(WALLET.toLowerCase());
      expect(await authenticateApiKey(store, { key: created.key })).to.deep.equal({
        id: created.id,
        owner: WALLET.toLowerCase(),
        label: "bot",
      });
      const listed = await listApiKeys(store.db, WALLET.toLowerCase());
      expect(listed).to.deep.equal([
        { id: created.id, owner: WALLET.toLowerCase(), label: "bot", created_at: NOW, revoked_at: null },
      ]);
      expect(await everyStoredText(store)).to.not.include(created.key);
      expect(await revokeApiKey({ db: store.db, now }, { id: created.id, owner: "env" })).to.equal(false);
      expect(await revokeApiKey({ db: store.db, now }, { id: created.id, owner: WALLET })).to.equal(true);
      expect(await revokeApiKey({ db: store.db, now }, { id: created.id, owner: WALLET })).to.equal(false);
      const error = await rejection(authenticateApiKey(store, { key: created.key }));
      expect((error as UnauthorizedError).problem).to.equal("revoked");
      expect(await rejection(createApiKey({ db: store.db, now }, { owner: "env" }))).to.have.property("field", "owner");
    });

    it("refuses a second row for the same hash", async () => {
      const row = { id: "other", keySha256: hashApiKey({ key: KEY_A }), owner: WALLET, label: null, now: NOW };
      expect(await insertApiKey(store.db, row)).to.equal(false);
    });
  });

  describe("claimIdempotencyKey", () => {
    it("claims a (key id, idempotency key) pair once; another API key has its own", async () => {
      const record = {
        apiKeyId: keyA,
        idempotencyKey: "k1",
        requestSha256: "00",
        status: 201,
        responseJson: "{}",
        createdAt: NOW,
      };
      expect(await claimIdempotencyKey(store.db, record)).to.equal(true);
      expect(await claimIdempotencyKey(store.db, { ...record, requestSha256: "11" })).to.equal(false);
      expect(await claimIdempotencyKey(store.db, { ...record, apiKeyId: "other" })).to.equal(true);
      expect(await findIdempotencyRecord(store.db, { apiKeyId: keyA, idempotencyKey: "k1" })).to.deep.equal(record);
    });
  });

  describe("createLiquidityRequest", () => {
    it("writes the request, its event and (with a key) its idempotency record together", async () => {
      const { status, body, replayed } = await createLiquidityRequest(
        { db: store.db, now },
        { apiKeyId: keyA, input: { ...BODY, note: "for launch" }, idempotencyKey: "req-1" },
      );
      expect({ status, replayed }).to.deep.equal({ status: 201, replayed: false });
      expect(body).to.deep.equal({
        id: body.id,
        chainId: 1,
        pool: `eip155:1:${POOL}`,
        asset: null,
        amountUsd: 250_000,
        horizonDays: 30,
        note: "for launch",
        apiKeyId: keyA,
        createdAt: NOW,
      });
      expect(await getLiquidityRequest(store.db, body.id)).to.deep.equal({
        id: body.id,
        chain_id: 1,
        pool_address: POOL,
        asset_address: null,
        amount_usd: 250_000,
        horizon_days: 30,
        note: "for launch",
        api_key_id: keyA,
        created_at: NOW,
      });
      const [event] = await listActivity(store.db, { limit: 10, beforeId: null, kinds: ["liquidity_request.created"] });
      expect(event).to.include({ kind: "liquidity_request.created", at: NOW, chain_id: 1, address: POOL });
      expect(event.summary).to.equal(`Liquidity requested: $250,000 for 30 days in eip155:1:${POOL}`);
      expect(JSON.parse(event.data_json)).to.deep.equal({
        id: body.id,
        chainId: 1,
        poolId: `eip155:1:${POOL}`,
        asset: null,
        amountUsd: 250_000,
        horizonDays: 30,
        note: "for launch",
        createdAt: NOW,
      });
      const record = await findIdempotencyRecord(store.db, { apiKeyId: keyA, idempotencyKey: "req-1" });
      expect(JSON.parse(record!.responseJson)).to.deep.equal(body);
      expect(await everyStoredText(store)).to.not.include(KEY_A);
    });

    it("writes an asset request (lower-cased) on a tracked chain, with an event without a pool", async () => {
      const { body } = await createLiquidityRequest(
        { db: store.db, now },
        { apiKeyId: keyA, input: { chainId: 8453, asset: ASSET, amountUsd: 1.5, horizonDays: 1 } },
      );
      expect(body).to.include({ pool: null, asset: ASSET.toLowerCase(), note: null });
      const [event] = await listActivity(store.db, { limit: 1, beforeId: null });
      expect(event).to.include({ chain_id: null, address: null });
      expect(event.summary).to.equal(
        `Liquidity requested: $1.5 for 1 day in asset ${ASSET.toLowerCase()} on chain 8453`,
      );
    });

    it("replays the first answer for the same idempotency key and body, and writes nothing more", async () => {
      const write = (input: unknown) =>
        createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input, idempotencyKey: "same" });
      const first = await write(BODY);
      // The same request, its members in another order and the pool id in another case: the same fingerprint.
      const again = await write({
        horizonDays: 30,
        amountUsd: 250_000,
        pool: POOL.toUpperCase().replace("0X", "0x"),
        chainId: 1,
      });
      expect(again).to.deep.equal({ ...first, replayed: true });
      expect(await countLiquidityRequests(store.db)).to.equal(1);
      expect(await listActivity(store.db, { limit: 10, beforeId: null })).to.have.length(1);
    });

    it("refuses the same idempotency key with another body, and scopes keys per API key", async () => {
      const ctx = { db: store.db, now };
      await createLiquidityRequest(ctx, { apiKeyId: keyA, input: BODY, idempotencyKey: "k" });
      const error = await rejection(
        createLiquidityRequest(ctx, { apiKeyId: keyA, input: { ...BODY, amountUsd: 1 }, idempotencyKey: "k" }),
      );
      expect(error).to.be.instanceOf(IdempotencyKeyReusedError);
      const other = await createLiquidityRequest(ctx, { apiKeyId: "another-key", input: BODY, idempotencyKey: "k" });
      expect(other.replayed).to.equal(false);
      expect(await countLiquidityRequests(store.db)).to.equal(2);
      expect((await listLiquidityRequests(store.db, { apiKeyId: keyA, limit: 10 })).length).to.equal(1);
    });

    it("writes one row for concurrent retries with the same idempotency key", async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input: BODY, idempotencyKey: "race" }),
        ),
      );
      expect(new Set(results.map((result) => result.body.id)).size).to.equal(1);
      expect(results.filter((result) => !result.replayed)).to.have.length(1);
      expect(await countLiquidityRequests(store.db)).to.equal(1);
      expect(await listActivity(store.db, { limit: 50, beforeId: null })).to.have.length(1);
    });

    it("replays a concurrent write that claimed the key first, once it commits (and writes if it rolls back)", async () => {
      const ctx = { db: store.db, now };
      // The fingerprint of BODY, as the write computes it.
      await createLiquidityRequest(ctx, { apiKeyId: "probe", input: BODY, idempotencyKey: "probe" });
      const { requestSha256 } = (await findIdempotencyRecord(store.db, {
        apiKeyId: "probe",
        idempotencyKey: "probe",
      }))!;
      const rowsBefore = await countLiquidityRequests(store.db);
      for (const outcome of ["commit", "rollback"] as const) {
        const idempotencyKey = `held-${outcome}`;
        const winner = { ...BODY, id: "winner", pool: `eip155:1:${POOL}`, asset: null, note: null, apiKeyId: keyA };
        let claimed!: () => void;
        let finish!: () => void;
        const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
        const finishing = new Promise<void>((resolve) => (finish = resolve));
        // Another writer holds the claim in an open transaction (on PostgreSQL this one's claim waits for it).
        const other = store.db
          .transaction()
          .execute(async (tx) => {
            const record = { apiKeyId: keyA, idempotencyKey, requestSha256, status: 201, createdAt: NOW };
            await claimIdempotencyKey(tx, { ...record, responseJson: JSON.stringify(winner) });
            claimed();
            await finishing;
            if (outcome === "rollback") throw new Error("rolled back");
          })
          .catch(() => undefined);
        await hasClaimed;
        const call = createLiquidityRequest(ctx, { apiKeyId: keyA, input: BODY, idempotencyKey });
        await new Promise((resolve) => setTimeout(resolve, 150));
        finish();
        await other;
        const result = await call;
        if (outcome === "commit") expect(result).to.deep.equal({ status: 201, body: winner, replayed: true });
        else expect(result.replayed).to.equal(false);
      }
      expect(await countLiquidityRequests(store.db)).to.equal(rowsBefore + 1);
    });

    it("writes a row per call without an idempotency key", async () => {
      for (let i = 0; i < 2; i++) await createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input: BODY });
      expect(await countLiquidityRequests(store.db)).to.equal(2);
    });

    it("leaves no row, record or event when the transaction fails part way", async () => {
      await sql`DROP TABLE activity_events`.execute(store.db);
      const error = await rejection(
        createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input: BODY, idempotencyKey: "k" }),
      );
      expect(error).to.not.be.instanceOf(InvalidLiquidityRequestError);
      expect(await countLiquidityRequests(store.db)).to.equal(0);
      expect(await findIdempotencyRecord(store.db, { apiKeyId: keyA, idempotencyKey: "k" })).to.equal(undefined);
    });

    it("resolves the pool like every reader and checks it against chainId", async () => {
      const write = (input: Record<string, unknown>) =>
        rejection(createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input: { ...BODY, ...input } }));
      expect(await write({ pool: "0x4444444444444444444444444444444444444444" })).to.be.instanceOf(PoolNotFoundError);
      const ambiguous = await write({ chainId: 8453, pool: SHARED });
      expect(ambiguous).to.be.instanceOf(AmbiguousPoolError);
      expect((ambiguous as AmbiguousPoolError).candidates).to.deep.equal([
        `eip155:8453:${SHARED}`,
        `eip155:42161:${SHARED}`,
      ]);
      expect(await write({ pool: "0x12" })).to.be.instanceOf(InvalidPoolIdError);
      expect(await write({ chainId: 8453, pool: `eip155:1:${POOL}` })).to.be.instanceOf(ChainMismatchError);
      expect(await write({ chainId: 8453, pool: POOL })).to.be.instanceOf(ChainMismatchError);
      expect(await write({ chainId: 10, pool: undefined, asset: ASSET })).to.be.instanceOf(ChainNotTrackedError);
      expect(await write({ amountUsd: "1" })).to.be.instanceOf(InvalidLiquidityRequestError);
      expect(await countLiquidityRequests(store.db)).to.equal(0);
      const ok = await createLiquidityRequest(
        { db: store.db, now },
        { apiKeyId: keyA, input: { ...BODY, chainId: 42161, pool: `42161:${SHARED}` } },
      );
      expect(ok.body.pool).to.equal(`eip155:42161:${SHARED}`);
    });

    for (const idempotencyKey of ["", "a b", "é", "\t", "x".repeat(256)]) {
      it(`refuses the idempotency key ${JSON.stringify(idempotencyKey).slice(0, 20)}`, async () => {
        const error = await rejection(
          createLiquidityRequest({ db: store.db, now }, { apiKeyId: keyA, input: BODY, idempotencyKey }),
        );
        expect(error).to.be.instanceOf(InvalidIdempotencyKeyError);
      });
    }
  });
}

describe("keyed writes (src/write, storage of keys, requests and idempotency)", () => {
  forEachBackend(keyedWriteSuite);
});
