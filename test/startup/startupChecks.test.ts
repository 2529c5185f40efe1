import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { JsonRpcServer } from "../../src/chain/serveJsonRpc";
import { loadConfig } from "../../src/config/loadConfig";
import { ConfigError } from "../../src/errors/config";
import { RpcUnreachableAtStartError } from "../../src/errors/startup";
import { StoreOpenError } from "../../src/errors/storage";
import { loadAttesterKey } from "../../src/main/attesterKey";
import { runService } from "../../src/main/runService";
import { startChainIdOnlyRpc } from "../helpers/chainIdOnlyRpc";
import { rejection } from "../helpers/rejection";
import { TEST_KEY } from "../helpers/service/app";
import { freshPostgresUrl } from "../../testkit/postgres";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A PostgreSQL server that refuses every login as a server with password authentication does for a wrong password:
 * an ErrorResponse with SQLSTATE 28P01 (the test cluster trusts every login, so it cannot produce one).
 */
async function authFailingPostgres(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createTcpServer((socket) => {
    socket.once("data", () => {
      const fields = ["SFATAL", "VFATAL", "C28P01", 'Mpassword authentication failed for user "svc"']
        .map((field) => `${field}\0`)
        .join("");
      const body = Buffer.from(`${fields}\0`);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length + 4);
      socket.end(Buffer.concat([Buffer.from("E"), length, body]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `postgres://svc:wrong@127.0.0.1:${(server.address() as AddressInfo).port}/svc`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("start-up checks of the configured mode (docs/operations.md#start-up-checks)", function () {
  this.timeout(60_000);
  let dir: string;
  let chain1: JsonRpcServer;
  let chain42161: JsonRpcServer;

  before(async function () {
    chain1 = await startChainIdOnlyRpc(1);
    chain42161 = await startChainIdOnlyRpc(42161);
  });
  after(async function () {
    await chain1.close();
    await chain42161.close();
  });
  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), "startup-checks-"));
    const pool = { chainId: 1, address: "0x00000000000000000000000000000000000000aa", kind: "amm", symbol: "A-B" };
    writeFileSync(join(dir, "pools.json"), JSON.stringify({ pools: [{ ...pool, protocol: "uniswap-v2" }] }));
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A configured environment: chain 1 and 42161 each through its own endpoint, the test key, SQLite in DATA_DIR. */
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    DATA_DIR: join(dir, "data"),
    PORT: "0",
    LOG_LEVEL: "silent",
    POOLS_FILE: join(dir, "pools.json"),
    RPC_URL_1: chain1.url,
    RPC_URL_42161: chain42161.url,
    ATTESTER_PRIVATE_KEY: TEST_KEY,
    INGEST_INTERVAL_S: "3600",
    ...extra,
  });
  const start = (extra: Record<string, string> = {}) =>
    runService({ config: loadConfig({ env: env(extra) }), log: () => undefined });

  it("swapped RPC URLs: the start stops with one line naming both chain ids, before anything is written", async function () {
    const error = await rejection(start({ RPC_URL_1: chain42161.url, RPC_URL_42161: chain1.url }));
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).shortMessage).to.match(
      /^RPC_URL_1: answers eth_chainId 42161, not 1 \(swapped RPC URLs\?\)/,
    );
    expect((error as ConfigError).shortMessage).to.not.include("\n");
    expect(existsSync(join(dir, "data"))).to.equal(false);
  });

  it("an RPC URL that does not answer eth_chainId stops the start (exit 1) naming the variable, before anything is written", async function () {
    const port = await closedPort();
    const error = await rejection(start({ RPC_URL_42161: `http://127.0.0.1:${port}/secret-key` }));
    expect(error).to.be.instanceOf(RpcUnreachableAtStartError);
    expect((error as RpcUnreachableAtStartError).shortMessage).to.match(
      new RegExp(
        `^RPC_URL_42161 \\(http://127\\.0\\.0\\.1:${port}/…\\) did not answer eth_chainId: .*\\(ECONNREFUSED\\)$`,
      ),
    );
    expect((error as RpcUnreachableAtStartError).shortMessage).to.not.include("secret-key");
    expect(existsSync(join(dir, "data"))).to.equal(false);
  });

  it("the right RPC URLs pass the check: the service starts, and stops", async function () {
    const service = await start();
    await service.stop();
    expect(existsSync(join(dir, "data", "service.sqlite"))).to.equal(true);
  });

  it("a ws:// or wss:// RPC URL is refused at configuration time with one line (no code path reads over WebSocket)", function () {
    for (const url of ["ws://127.0.0.1:8546", "wss://rpc.example/v1/key"]) {
      expect(() => loadConfig({ env: env({ RPC_URL_1: url }) }))
        .to.throw(ConfigError)
        .with.property("shortMessage")
        .that.matches(/^RPC_URL_1: must be an http\(s\) URL; WebSocket \(ws, wss\) is not supported/);
    }
  });

  for (const role of ["all", "worker"] as const) {
    it(`SERVICE_ROLE=${role} without a key: refused, naming the variables, and no dev key is created`, async function () {
      const extra: Record<string, string> = { ATTESTER_PRIVATE_KEY: "", SERVICE_ROLE: role };
      // A worker needs PostgreSQL; the check stops the start before the database is ever asked.
      if (role === "worker") extra.DATABASE_URL = `postgres://127.0.0.1:${await closedPort()}/none`;
      const error = await rejection(start(extra));
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).shortMessage).to.match(
        /^ATTESTER_PRIVATE_KEY: the configured mode never signs with a generated development key: set ATTESTER_PRIVATE_KEY, ATTESTER_KEY_FILE or ATTESTER_SIGNER_URL/,
      );
      expect(existsSync(join(dir, "data"))).to.equal(false);
    });
  }

  it("a key file readable by group or others is refused, naming the file and chmod 600; 0600 is accepted", async function () {
    const file = join(dir, "attester.key");
    writeFileSync(file, `${TEST_KEY}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    const loose = () => loadAttesterKey({ source: { file }, mode: "configured" });
    expect(loose)
      .to.throw(ConfigError)
      .with.property("shortMessage")
      .that.equals(`ATTESTER_KEY_FILE: ${file} is readable by group or others (mode 0644): chmod 600 ${file}`);
    const error = await rejection(start({ ATTESTER_PRIVATE_KEY: "", ATTESTER_KEY_FILE: file }));
    expect(error).to.be.instanceOf(ConfigError);
    expect(existsSync(join(dir, "data", "service.sqlite"))).to.equal(false);
    chmodSync(file, 0o600);
    expect(loose().origin).to.equal("ATTESTER_KEY_FILE");
  });

  it("a busy port: the start stops with one line naming the port, and no pass is written", async function () {
    const busy = createTcpServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const error = await rejection(start({ PORT: String(port) }));
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).shortMessage).to.equal(
        `PORT: 127.0.0.1:${port} is already in use (EADDRINUSE): stop what listens there, or set another PORT`,
      );
      expect(existsSync(join(dir, "data", "service.sqlite"))).to.equal(false);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  describe("database failures name their cause in one line", function () {
    const failure = async (databaseUrl: string) => {
      const error = await rejection(start({ DATABASE_URL: databaseUrl }));
      expect(error).to.be.instanceOf(StoreOpenError);
      const line = (error as StoreOpenError).shortMessage;
      expect(line).to.not.include("\n");
      return line;
    };

    it("connection refused (ECONNREFUSED)", async function () {
      const port = await closedPort();
      expect(await failure(`postgres://postgres@127.0.0.1:${port}/app`)).to.match(
        new RegExp(
          `^Cannot open the store \\(postgres\\): connection refused \\(ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)`,
        ),
      );
    });

    it("authentication failed (28P01)", async function () {
      const server = await authFailingPostgres();
      try {
        expect(await failure(server.url)).to.match(
          /^Cannot open the store \(postgres\): authentication failed \(28P01\): password authentication failed for user "svc"/,
        );
      } finally {
        await server.close();
      }
    });

    it("the database does not exist (3D000)", async function () {
      const url = (await freshPostgresUrl()).replace(/\/[^/]+$/, "/no_such_database");
      expect(await failure(url)).to.match(
        /^Cannot open the store \(postgres\): the database does not exist \(3D000\): database "no_such_database" does not exist/,
      );
    });
  });
});
