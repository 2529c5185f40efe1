import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { loadConfig } from "../../src/config/loadConfig";
import { runService, type RunningService } from "../../src/main/runService";
import { TEST_KEY } from "../helpers/service/app";
import { freshPostgresUrl } from "../helpers/storage/postgres";

type Call = { id: unknown; method: string };

/**
 * A JSON-RPC endpoint of chain 1 that answers `eth_chainId` at once and holds every other request until `release()`
 * (then answers it "method not found"): a first pass that stays in its chain read as long as the test wants.
 */
async function gatedRpc() {
  const held: { res: ServerResponse; calls: Call[] | Call }[] = [];
  let released = false;
  const answer = (call: Call) =>
    call.method === "eth_chainId"
      ? { jsonrpc: "2.0", id: call.id, result: "0x1" }
      : { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "method not found" } };
  const send = (res: ServerResponse, calls: Call[] | Call) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
  };
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const calls = JSON.parse(body) as Call[] | Call;
      const onlyChainId = [calls].flat().every((call) => call.method === "eth_chainId");
      if (onlyChainId || released) send(res, calls);
      else held.push({ res, calls });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    release() {
      released = true;
      for (const { res, calls } of held.splice(0)) send(res, calls);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the HTTP port is bound before the first pass (DESIGN §12)", function () {
  this.timeout(60_000);
  let dir: string;
  let rpc: Awaited<ReturnType<typeof gatedRpc>>;

  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), "serving-before-pass-"));
    const pool = { chainId: 1, address: "0x00000000000000000000000000000000000000aa", kind: "amm", symbol: "A-B" };
    writeFileSync(join(dir, "pools.json"), JSON.stringify({ pools: [{ ...pool, protocol: "uniswap-v2" }] }));
    rpc = await gatedRpc();
  });
  afterEach(async function () {
    rpc.release();
    await rpc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const role of ["all", "worker"] as const) {
    it(`SERVICE_ROLE=${role}: /livez 200 and /readyz 503 (starting) during the first pass, /readyz 200 after it`, async function () {
      const lines: string[] = [];
      const config = loadConfig({
        env: {
          DATA_DIR: join(dir, "data"),
          PORT: "0",
          LOG_LEVEL: "silent",
          SERVICE_ROLE: role,
          POOLS_FILE: join(dir, "pools.json"),
          RPC_URL_1: rpc.url,
          ATTESTER_PRIVATE_KEY: TEST_KEY,
          INGEST_INTERVAL_S: "3600",
          // A worker shares PostgreSQL with the api processes.
          ...(role === "worker" ? { DATABASE_URL: await freshPostgresUrl() } : {}),
        },
      });
      const starting = runService({ config, log: (line) => lines.push(line) });
      let service: RunningService | undefined;
      try {
        await until(() => rpc.held() > 0, "the first pass to read the chain");
        const serving = lines.findIndex((line) => line.startsWith("serving "));
        expect(serving, lines.join("\n")).to.be.greaterThan(-1);
        const url = /(http:\/\/[\d.]+:\d+)/.exec(lines[serving])![1];
        expect((await fetch(`${url}/livez`)).status).to.equal(200);
        const notReady = await fetch(`${url}/readyz`);
        expect(notReady.status).to.equal(503);
        expect(((await notReady.json()) as { reasons: string[] }).reasons).to.deep.equal(["starting"]);

        rpc.release();
        service = await starting;
        const firstPass = lines.findIndex((line) => line.includes("ingestion pass"));
        expect(firstPass, lines.join("\n")).to.be.greaterThan(serving);
        expect(service.url).to.equal(url);
        const ready = await fetch(`${url}/readyz`);
        expect(ready.status, JSON.stringify(await ready.clone().json())).to.equal(200);
        expect(((await ready.json()) as { lastPassAt: number | null }).lastPassAt).to.be.a("number");
      } finally {
        rpc.release();
        await (service ?? (await starting.catch(() => undefined)))?.stop();
      }
    });
  }
});
