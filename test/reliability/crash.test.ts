import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Address } from "viem";
import { demoPoolConfigs, startFeedServer, type FeedServer } from "../../src/demo/feedServer";
import { runIngestionPass } from "../../src/ingest/runIngestionPass";
import type { PoolConfig } from "../../src/model/poolConfig";
import { listIngestRuns } from "../../src/storage/ingestRuns";
import { openStore } from "../../src/storage/openStore";
import { listPoolRows } from "../helpers/storage/poolRows";
import { startLocalMarket, type LocalMarket } from "../helpers/ingest/localMarket";

const ROOT = join(__dirname, "..", "..");
const CHILD = join(__dirname, "..", "helpers", "reliability", "passChild.ts");
const T0 = Date.UTC(2026, 9, 1, 12) / 1000;

/** Starts the pass child; resolves its output lines through `onLine`. */
function startChild(
  config: { file: string; [key: string]: unknown },
  onLine: (line: string) => void,
): { child: ChildProcess; exited: Promise<number | null> } {
  const configFile = `${config.file}.child.json`;
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", CHILD], {
    cwd: ROOT,
    env: { ...process.env, PASS_CHILD_CONFIG: configFile, TS_NODE_TRANSPILE_ONLY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let index: number;
    while ((index = buffer.indexOf("\n")) >= 0) {
      onLine(buffer.slice(0, index));
      buffer = buffer.slice(index + 1);
    }
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      if (code !== null && code !== 0) process.stderr.write(stderr);
      resolve(code);
    }),
  );
  return { child, exited };
}

function integrity(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.pragma("integrity_check", { simple: true }) as string) ?? "";
  } finally {
    db.close();
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("reliability: a pass killed with SIGKILL", function () {
  let market: LocalMarket;
  let feeds: FeedServer;
  let pools: PoolConfig[];
  let dir: string;
  let file: string;

  before(async () => {
    market = await startLocalMarket({ genesisTime: T0 - 86_400, lending: true });
    await market.mineAt(T0);
    const described = market.pools.map((p) => ({ ...p, underlying: p.underlying ? [p.underlying] : [] }));
    feeds = await startFeedServer({ pools: described, now: () => T0 });
    pools = demoPoolConfigs(described);
  });
  after(async () => {
    await feeds?.close();
    await market?.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "crash-"));
    file = join(dir, "service.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function firstPass() {
    const store = await openStore({ file });
    const report = await runIngestionPass({
      store,
      pools,
      chains: [{ chainId: 1, client: market.client }],
      feeds: feeds.urls,
      now: () => T0,
      issue: false,
      freshnessWindowS: 3600,
      log: () => undefined,
    });
    expect(report.status).to.equal("ok");
    const before = await listPoolRows(store.db);
    await store.close();
    return before;
  }

  it("mid-read (waiting on a slow feed): the store reopens intact, keeps earlier rows, and the next pass completes", async () => {
    const before = await firstPass();
    feeds.setDelay(60_000);
    const requestsBefore = feeds.requests.merkl;
    const { child, exited } = startChild(
      { file, rpcUrl: market.chain.rpcUrl, chainId: 1, feeds: feeds.urls, pools, startTime: T0 + 60, passes: 1 },
      () => undefined,
    );
    try {
      // The child is inside the pass once the slow feed has received its request.
      await waitFor(() => feeds.requests.merkl > requestsBefore || child.exitCode !== null, "the child's feed request");
      expect(child.exitCode).to.equal(null);
      child.kill("SIGKILL");
      expect(await exited).to.equal(null);
    } finally {
      feeds.setDelay(0);
      if (child.exitCode === null) child.kill("SIGKILL");
    }

    expect(integrity(file)).to.equal("ok");
    const store = await openStore({ file });
    try {
      expect(await listPoolRows(store.db)).to.deep.equal(before);
      const runs = await listIngestRuns(store.db);
      expect(runs.map((r) => r.status)).to.deep.equal(["running", "ok"]);
      const next = await runIngestionPass({
        store,
        pools,
        chains: [{ chainId: 1, client: market.client }],
        feeds: feeds.urls,
        now: () => T0 + 120,
        issue: false,
        freshnessWindowS: 3600,
        log: () => undefined,
      });
      expect(next.status).to.equal("ok");
      const after = await listIngestRuns(store.db);
      expect(after.map((r) => r.status)).to.deep.equal(["ok", "failed", "ok"]);
      expect(JSON.parse(after[1].sources_json).pass.error).to.match(/^interrupted/);
      const rows = await listPoolRows(store.db);
      expect(rows.every((r) => r.updated_at === T0 + 120)).to.equal(true);
    } finally {
      await store.close();
    }
  });

  it("at an arbitrary point of back-to-back passes: every pass is all-or-nothing", async () => {
    await firstPass();
    // Many feed-only pools (on a chain with no client) make each write transaction long enough to be hit.
    const extra: PoolConfig[] = Array.from({ length: 1500 }, (_, i) => ({
      chainId: 8453,
      address: `0x${(i + 1).toString(16).padStart(40, "0")}` as Address,
      kind: "amm" as const,
      symbol: `P${i}`,
      protocol: "uniswap-v2",
    }));
    let done = 0;
    const { child, exited } = startChild(
      {
        file,
        rpcUrl: market.chain.rpcUrl,
        chainId: 1,
        feeds: feeds.urls,
        pools: [...pools, ...extra],
        startTime: T0 + 1000,
        passes: null,
      },
      (line) => {
        if (line.startsWith("pass-done")) done++;
      },
    );
    try {
      await waitFor(() => done >= 2 || child.exitCode !== null, "two passes in the child");
      expect(child.exitCode).to.equal(null);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)));
      child.kill("SIGKILL");
      expect(await exited).to.equal(null);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }

    expect(integrity(file)).to.equal("ok");
    const store = await openStore({ file });
    try {
      const rows = await listPoolRows(store.db);
      // Each pass writes every pool row with its own clock in one transaction: after the kill, all rows carry the
      // same pass's time (never a mix), and no pool is missing.
      expect(rows).to.have.length(pools.length + extra.length);
      expect(new Set(rows.map((r) => r.updated_at)).size).to.equal(1);
      const onchain = rows.filter((r) => r.chain_id === 1);
      expect(onchain.every((r) => r.depth_usd !== null && r.depth_usd > 0)).to.equal(true);
      const runs = await listIngestRuns(store.db, 100);
      expect(runs.filter((r) => r.status === "running").length).to.be.at.most(1);
      const next = await runIngestionPass({
        store,
        pools: [...pools, ...extra],
        chains: [{ chainId: 1, client: market.client }],
        feeds: feeds.urls,
        now: () => T0 + 5000,
        issue: false,
        freshnessWindowS: 3600,
        log: () => undefined,
      });
      expect(next.status).to.equal("partial"); // chain 8453 has no client
      expect((await listIngestRuns(store.db, 100)).some((r) => r.status === "running")).to.equal(false);
    } finally {
      await store.close();
    }
  });
});
