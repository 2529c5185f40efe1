import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { loadConfig } from "../../src/config/loadConfig";
import { runService, type RunningService } from "../../src/main/runService";
import { listActivity } from "../../src/storage/activity";
import { countIngestRuns, finishIngestRun, listIngestRuns, startIngestRun } from "../../src/storage/ingestRuns";
import { readLease } from "../../src/storage/leaderLease";
import { openStore, type Store } from "../../src/storage/openStore";
import { waitFor } from "../helpers/alerts/receiver";
import { startChainIdOnlyRpc } from "../helpers/chainIdOnlyRpc";
import { DAY, NOW, TEST_KEY, insertAttestation } from "../helpers/service/app";
import { freshPostgresUrl, sharedPostgres } from "../../testkit/postgres";

describe("SERVICE_ROLE on one PostgreSQL database", function () {
  let dir: string;
  let rpc: Awaited<ReturnType<typeof startChainIdOnlyRpc>>;
  let databaseUrl: string;
  let store: Store;
  const services: RunningService[] = [];
  before(async function () {
    this.timeout(60_000);
    await sharedPostgres();
    rpc = await startChainIdOnlyRpc(1);
  });
  after(() => rpc.close());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "roles-"));
    databaseUrl = await freshPostgresUrl();
    store = await openStore({ databaseUrl });
    const pool = { chainId: 1, address: "0x00000000000000000000000000000000000000aa", kind: "amm", symbol: "A-B" };
    writeFileSync(join(dir, "pools.json"), JSON.stringify({ pools: [{ ...pool, protocol: "uniswap-v2" }] }));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const config = loadConfig({
      env: {
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(dir, "data"),
        PORT: "0",
        LOG_LEVEL: "silent",
        RPC_URL_1: rpc.url,
        POOLS_FILE: join(dir, "pools.json"),
        ...env,
      },
    });
    const service = await runService({ config, log: () => undefined });
    services.push(service);
    return service;
  };
  const worker = (instance: string) =>
    start({ SERVICE_ROLE: "worker", INSTANCE_ID: instance, ATTESTER_PRIVATE_KEY: TEST_KEY, INGEST_INTERVAL_S: "2" });

  it("workers: one leads and runs the passes under its instance id; the other takes over when it stops", async () => {
    const w1 = await worker("w1");
    const w2 = await worker("w2");
    expect([w1.status.leader, w2.status.leader]).to.deep.equal([true, false]);
    expect(await readLease(store.db, "ingest")).to.deep.include({ holder: "w1", epoch: 1 });
    const runs = await listIngestRuns(store.db);
    expect(runs.map((r) => r.instance_id)).to.include("w1");
    expect(runs.map((r) => r.instance_id)).not.to.include("w2");
    expect(w1.status.lastPassAt).to.be.a("number");
    expect(w2.status.lastPassAt).to.equal(null);

    await w1.stop();
    await waitFor(() => w2.status.leader === true, "w2 to take over");
    const instances = async () => {
      const passes = await listActivity(store.db, { limit: 100, beforeId: null, kinds: ["ingest.pass"] });
      return [...new Set(passes.map((event) => (JSON.parse(event.data_json) as { instance: string }).instance))].sort();
    };
    await waitFor(async () => (await instances()).includes("w2"), "a pass by w2");
    expect(await instances()).to.deep.equal(["w1", "w2"]);
    expect(await readLease(store.db, "ingest")).to.deep.include({ holder: "w2", epoch: 2 });
  });

  it("api first on an empty database: it waits (503 with reasons), never exits, and is ready once a worker has issued", async () => {
    const env = { SERVICE_ROLE: "api", INSTANCE_ID: "api-0", ATTESTER_KEY_FILE: join(dir, "missing.key") };
    const api = await start(env);
    expect(api.attester).to.equal(null);
    const early = await fetch(`${api.url}/api/v1/attester`);
    expect(early.status).to.equal(503);
    expect(early.headers.get("retry-after")).to.equal("5");
    expect(((await early.json()) as { error: { code: string } }).error.code).to.equal("ATTESTER_UNKNOWN");
    const notReady = await fetch(`${api.url}/readyz`);
    expect(notReady.status).to.equal(503);
    expect(((await notReady.json()) as { reasons: string[] }).reasons).to.deep.equal([
      "attester unknown",
      "no finished pass",
    ]);

    // What a worker's first issuing pass leaves in the store: a finished pass and an attestation signed by its key.
    await startIngestRun(store.db, { id: "first", startedAt: NOW - 60 });
    await finishIngestRun(store.db, { id: "first", finishedAt: NOW - 30, status: "ok", sources: {} });
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(503);
    const address = "0x00000000000000000000000000000000000000aa";
    await insertAttestation(store, {
      chainId: 1,
      address,
      issuedAt: NOW,
      expiry: NOW + DAY,
      horizonDays: 7,
      confidenceHundredths: 90,
    });
    await waitFor(async () => (await fetch(`${api.url}/readyz`)).status === 200, "the api process to become ready");
    const answer = (await (await fetch(`${api.url}/api/v1/attester`)).json()) as { attester: string };
    expect(answer.attester).to.equal(privateKeyToAddress(TEST_KEY));
  });

  it("api: loads no key (its key file does not exist), runs no pass, takes no lease, and serves the attester", async () => {
    const env = { SERVICE_ROLE: "api", INSTANCE_ID: "api-1", ATTESTER_KEY_FILE: join(dir, "missing.key") };
    const address = privateKeyToAddress(TEST_KEY);
    const api = await start({ ...env, ATTESTER_KEY_FILE: "", ATTESTER_SIGNER_URL: rpc.url, ATTESTER_ADDRESS: address });
    expect(api.status).to.deep.include({ role: "api", instance: "api-1", leader: null });
    const answer = (await (await fetch(`${api.url}/api/v1/attester`)).json()) as { attester: string };
    expect(answer.attester).to.equal(address);
    expect(await countIngestRuns(store.db)).to.equal(0);
    expect(await readLease(store.db, "ingest")).to.equal(undefined);
  });
});
