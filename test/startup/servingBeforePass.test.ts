import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { serveJsonRpc } from "../../src/chain/serveJsonRpc";
import { loadConfig } from "../../src/config/loadConfig";
import { runService, type RunningService } from "../../src/main/runService";
import { waitFor } from "../helpers/alerts/receiver";
import { chainIdOnlyAnswer } from "../helpers/chainIdOnlyRpc";
import { TEST_KEY } from "../helpers/service/app";
import { freshPostgresUrl } from "../../testkit/postgres";

/**
 * A JSON-RPC endpoint of chain 1 that answers `eth_chainId` at once and holds every other call until `release()`
 * (then answers it "method not found"): a first pass that stays in its chain read as long as the test wants.
 */
async function gatedRpc() {
  const answer = chainIdOnlyAnswer(1);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const server = await serveJsonRpc({
    answer: async (call) => {
      if (call.method !== "eth_chainId") {
        held++;
        await released;
      }
      return answer(call);
    },
  });
  return { url: server.url, held: () => held, release, close: server.close };
}

describe("the HTTP port is bound before the first pass", function () {
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
        await waitFor(() => rpc.held() > 0, "the first pass to read the chain", 20_000);
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
