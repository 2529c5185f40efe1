import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { UnauthorizedError } from "../../src/errors/auth";
import { openStore, type Store } from "../../src/storage/openStore";
import { authenticateApiKey } from "../../src/write/authenticateApiKey";
import { createApiKey } from "../../src/write/createApiKey";
import { registerConfigApiKeys } from "../../src/write/registerConfigApiKeys";
import { rejection } from "../helpers/rejection";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";

const K1 = "k1".repeat(16) + "-first-configured-key";
const K2 = "k2".repeat(16) + "-second-configured-key";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const now = () => 1_767_225_600;
const tail = (key: string) => createHash("sha256").update(key).digest("hex").slice(-4);

/** Runs `attest <argv>` in-process; every line it writes is checked never to hold a key. */
async function attest(argv: string[], env: NodeJS.ProcessEnv, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), readStdin: async () => stdin, env };
  const code = await main(argv, io);
  for (const line of [...out, ...err]) for (const key of [K1, K2]) expect(line).to.not.include(key);
  return { code, out, err };
}

async function problem(store: Store, key: string): Promise<string> {
  return ((await rejection(authenticateApiKey(store, { key }))) as UnauthorizedError).problem;
}

function keysSuite(freshEnv: () => Promise<NodeJS.ProcessEnv>, openFor: (env: NodeJS.ProcessEnv) => Promise<Store>) {
  let env: NodeJS.ProcessEnv;
  let store: Store;
  let dir: string;
  beforeEach(async function () {
    env = await freshEnv();
    dir = env.DATA_DIR!;
    store = await openFor(env);
  });
  afterEach(async function () {
    await store.close();
  });

  it("two processes' API_KEYS only add: the one started with K1 alone leaves K2 working", async function () {
    await registerConfigApiKeys(
      { db: store.db, now },
      {
        keys: [
          { key: K1, label: "API_KEYS #1" },
          { key: K2, label: "API_KEYS #2" },
        ],
      },
    );
    await registerConfigApiKeys({ db: store.db, now }, { keys: [{ key: K1, label: "API_KEYS #1" }] });
    expect((await authenticateApiKey(store, { key: K2 })).label).to.equal("API_KEYS #2");
  });

  it("attest keys list shows id, label, created, revoked and the hash's last 4 hex digits, never a key", async function () {
    expect(await attest(["keys", "list"], env)).to.deep.equal({
      code: 0,
      out: ["no configured API keys in the store (API_KEYS adds them at a start)"],
      err: [],
    });
    await registerConfigApiKeys(
      { db: store.db, now },
      {
        keys: [
          { key: K1, label: "API_KEYS #1" },
          { key: K2, label: "API_KEYS #2" },
        ],
      },
    );
    await createApiKey({ db: store.db, now }, { owner: WALLET, label: "a wallet's key" });
    const { code, out } = await attest(["keys", "list"], env);
    expect(code).to.equal(0);
    expect(out).to.have.length(3);
    expect(out[0].split(/\s{2,}/)).to.deep.equal(["id", "label", "created", "revoked", "sha256"]);
    const rows = out.slice(1).map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => row.slice(1))).to.have.deep.members([
      ["API_KEYS #1", "2026-01-01T00:00:00Z", "-", `…${tail(K1)}`],
      ["API_KEYS #2", "2026-01-01T00:00:00Z", "-", `…${tail(K2)}`],
    ]);
    for (const row of rows) expect(row[0]).to.match(/^[0-9a-f-]{36}$/);
  });

  it("attest keys revoke takes the key from --key-file or standard input, never from argv; a start never restores it", async function () {
    await registerConfigApiKeys(
      { db: store.db, now },
      {
        keys: [
          { key: K1, label: "API_KEYS #1" },
          { key: K2, label: "API_KEYS #2" },
        ],
      },
    );
    const file = join(dir, "k2.key");
    writeFileSync(file, `${K2}\n`, { mode: 0o600 });
    const revoked = await attest(["keys", "revoke", "--key-file", file], env);
    expect(revoked.code).to.equal(0);
    expect(revoked.out).to.have.length(1);
    expect(revoked.out[0]).to.match(
      new RegExp(`^revoked: [0-9a-f-]{36} \\(API_KEYS #2, sha256 …${tail(K2)}\\); remove it from every API_KEYS`),
    );
    expect(await problem(store, K2)).to.equal("revoked");
    expect((await authenticateApiKey(store, { key: K1 })).label).to.equal("API_KEYS #1");
    const listed = (await attest(["keys", "list"], env)).out.slice(1).map((line) => line.split(/\s{2,}/));
    const revokedAt = listed.find((row) => row[1] === "API_KEYS #2")![3];
    expect(revokedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(listed.find((row) => row[1] === "API_KEYS #1")![3]).to.equal("-");
    // A process still configured with K2 starts: K2 stays revoked, and the start is told.
    expect(
      await registerConfigApiKeys(
        { db: store.db, now },
        {
          keys: [
            { key: K1, label: "API_KEYS #1" },
            { key: K2, label: "API_KEYS #2" },
          ],
        },
      ),
    ).to.deep.equal({ added: 0, kept: 1, revoked: 1 });
    expect(await problem(store, K2)).to.equal("revoked");

    const stdin = await attest(["keys", "revoke", "--key-file", "-"], env, `  ${K1}\n`);
    expect(stdin.code).to.equal(0);
    expect(stdin.out[0]).to.match(/^revoked: .*\(API_KEYS #1, /);
    expect(await problem(store, K1)).to.equal("revoked");
    const again = await attest(["keys", "revoke", "--key-file", "-"], env, K1);
    expect(again.out[0]).to.match(/^already revoked: .*API_KEYS #1/);

    const inline = await attest(["keys", "revoke", K1], env);
    expect(inline.code).to.equal(64);
    expect(inline.err[0]).to.equal(
      "attest keys: unexpected argument: give a key with --key-file <path> (or - for standard input), never inline",
    );
  });

  it("attest keys revoke by --id or --label from the list; ambiguous, unknown or a wallet's key is refused in one line", async function () {
    await registerConfigApiKeys(
      { db: store.db, now },
      {
        keys: [
          { key: K1, label: "API_KEYS #1" },
          { key: K2, label: "API_KEYS #1" },
        ],
      },
    );
    const ids = (await attest(["keys", "list"], env)).out.slice(1).map((line) => line.split(/\s+/)[0]);
    const ambiguous = await attest(["keys", "revoke", "--label", "API_KEYS #1"], env);
    expect(ambiguous.code).to.equal(1);
    expect(ambiguous.err).to.have.length(1);
    expect(ambiguous.err[0]).to.match(/^attest keys revoke: 2 keys have label "API_KEYS #1": revoke one by --id \(/);
    for (const id of ids) expect(ambiguous.err[0]).to.include(id);

    const byId = await attest(["keys", "revoke", "--id", ids[0]], env);
    expect(byId.code).to.equal(0);
    expect(byId.out[0]).to.match(new RegExp(`^revoked: ${ids[0]} `));
    // One of the two is left with that label: now the label names it.
    const byLabel = await attest(["keys", "revoke", "--label", "API_KEYS #1"], env);
    expect(byLabel.out[0]).to.match(new RegExp(`^revoked: ${ids[1]} `));
    expect(await problem(store, K1)).to.equal("revoked");
    expect(await problem(store, K2)).to.equal("revoked");

    expect((await attest(["keys", "revoke", "--id", "nope"], env)).err).to.deep.equal([
      "attest keys revoke: no configured key has id nope (see attest keys list)",
    ]);
    const wallet = await createApiKey({ db: store.db, now }, { owner: WALLET });
    const file = join(dir, "wallet.key");
    writeFileSync(file, wallet.key);
    const foreign = await attest(["keys", "revoke", "--key-file", file], env);
    expect(foreign.code).to.equal(1);
    expect(foreign.err).to.deep.equal([
      `attest keys revoke: the key in ${file} is a wallet's key; its owner revokes it in the dapp`,
    ]);
    expect((await authenticateApiKey(store, { key: wallet.key })).id).to.equal(wallet.id);

    const none = await attest(["keys", "revoke"], env);
    expect(none.code).to.equal(64);
    expect(none.err[0]).to.match(/^attest keys: say which key: --id <id> or --label <label>/);
  });
}

describe("attest keys list|revoke and API_KEYS that only add", function () {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "keys-"));
    dirs.push(dir);
    return dir;
  };
  after(function () {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe("SQLite (DATA_DIR)", function () {
    keysSuite(
      async () => ({ DATA_DIR: dataDir() }),
      (env) => openStore({ file: join(env.DATA_DIR!, "service.sqlite") }),
    );
  });

  describe("PostgreSQL (DATABASE_URL, throwaway local cluster)", function () {
    before(async function () {
      this.timeout(60_000);
      await sharedPostgres();
    });
    keysSuite(
      async () => ({ DATA_DIR: dataDir(), DATABASE_URL: await freshPostgresUrl() }),
      (env) => openStore({ databaseUrl: env.DATABASE_URL! }),
    );
  });
});
