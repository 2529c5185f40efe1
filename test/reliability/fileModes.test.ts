import { expect } from "chai";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAttesterKey } from "../../src/main/attesterKey";
import { ensurePrivateDir } from "../../src/storage/fileModes";
import { openStore } from "../../src/storage/openStore";

const modeOf = (path: string) => statSync(path).mode & 0o7777;

/**
 * docs/security.md#files: DATA_DIR 0700, the SQLite files (they hold webhook secrets) 0600, looser ones tightened at
 * start.
 */
describe("file modes of DATA_DIR and the database", function () {
  let root: string;
  beforeEach(function () {
    root = mkdtempSync(join(tmpdir(), "file-modes-"));
  });
  afterEach(function () {
    rmSync(root, { recursive: true, force: true });
  });

  it("creates DATA_DIR 0700, whatever the umask", function () {
    const dir = join(root, "a", "data");
    const previous = process.umask(0o002);
    try {
      expect(ensurePrivateDir(dir)).to.deep.equal({ action: "created" });
    } finally {
      process.umask(previous);
    }
    expect(modeOf(dir)).to.equal(0o700);
  });

  it("tightens an existing DATA_DIR that others may read, and says so", function () {
    const dir = join(root, "data");
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(ensurePrivateDir(dir)).to.deep.equal({ action: "tightened", was: "0755" });
    expect(modeOf(dir)).to.equal(0o700);
    expect(ensurePrivateDir(dir)).to.deep.equal({ action: "kept" });
  });

  it("leaves a shared (sticky) directory such as /tmp as it is", function () {
    const dir = join(root, "shared");
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    expect(ensurePrivateDir(dir)).to.deep.equal({ action: "left", was: "1777" });
    expect(modeOf(dir)).to.equal(0o1777);
  });

  it("creates the SQLite file and its -wal and -shm 0600, and a missing folder 0700", async function () {
    const file = join(root, "new", "service.sqlite");
    const store = await openStore({ file });
    try {
      await store.db.selectFrom("pools").selectAll().execute();
      expect(modeOf(join(root, "new"))).to.equal(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path), path).to.equal(true);
        expect(modeOf(path), path).to.equal(0o600);
      }
    } finally {
      await store.close();
    }
  });

  it("tightens database files left 0644 by an older version", async function () {
    const file = join(root, "service.sqlite");
    await (await openStore({ file })).close();
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o644);
    writeFileSync(`${file}-shm`, Buffer.alloc(0), { flag: "a" });
    chmodSync(`${file}-shm`, 0o644);
    const store = await openStore({ file });
    try {
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        if (existsSync(path)) expect(modeOf(path), path).to.equal(0o600);
      }
      expect(modeOf(file)).to.equal(0o600);
    } finally {
      await store.close();
    }
  });

  it("the dev attester key's folder is created 0700 too", function () {
    const dir = join(root, "keys");
    loadAttesterKey({ source: { dataDir: dir } });
    expect(modeOf(dir)).to.equal(0o700);
  });
});
