import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { Address } from "viem";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { MainJob, freePort } from "../helpers/e2e/mainJob";

const INTERVAL_S = 5;
const FRESHNESS_S = 20;
const LIFETIME_S = 60;

type PoolRow = { id: string; stale: boolean; observedAt: number | null };
type Served = { issuedAt: number; expiry: number };

describe("npm start keeps the demo fresh (scheduled passes after ready)", function () {
  this.timeout(240_000);

  let dataDir: string;
  let job: MainJob;
  let base: string;

  before(async function () {
    dataDir = mkdtempSync(join(tmpdir(), "service-clock-"));
    const port = await freePort();
    job = new MainJob({
      DATA_DIR: dataDir,
      PORT: String(port),
      // Enough history for a horizon (the model needs about 14 consecutive days).
      DEMO_DAYS: "20",
      INGEST_INTERVAL_S: String(INTERVAL_S),
      FRESHNESS_WINDOW_S: String(FRESHNESS_S),
      ATTESTATION_LIFETIME_S: String(LIFETIME_S),
      API_CACHE_TTL_MS: "0",
      RATE_LIMIT_MAX: "0",
    });
    await job.waitFor(/ready: attester/);
    base = `http://127.0.0.1:${port}`;
  });

  after(async function () {
    job?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const getJson = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, text: await response.text() };
  };
  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const nowS = () => Math.floor(Date.now() / 1000);

  it("re-issues an attestation once the previous one expired, from fresh depth, and it verifies", async function () {
    const attester = JSON.parse((await getJson("/api/v1/attester")).text).attester as Address;
    const { pools } = JSON.parse((await getJson("/api/v1/pools")).text) as { pools: PoolRow[] };
    let id: string | undefined;
    let first: Served | undefined;
    for (const pool of pools) {
      const res = await getJson(`/api/v1/pool/${pool.id}`);
      if (res.status === 200) {
        id = pool.id;
        first = JSON.parse(res.text) as Served;
        break;
      }
    }
    expect(id, "an attested pool after startup").to.be.a("string");
    expect(first!.expiry - first!.issuedAt).to.equal(LIFETIME_S);

    // Past the first attestation's expiry and well past the freshness window: several scheduled passes have run.
    while (nowS() <= first!.expiry + 2 * INTERVAL_S) await sleep(1000);

    const after = JSON.parse((await getJson("/api/v1/pools")).text) as {
      pools: PoolRow[];
      total: { depthUsd: number; pools: number };
      heldOut: { pools: string[] };
    };
    // Every pool stays fresh but the one whose source the demo stops on purpose (announced in the log).
    const [, chainId, address] = job.output.match(
      /demo: \S+ \(\S+, chain (\d+), (0x[0-9a-fA-F]{40})\) stops reporting/,
    )!;
    const silent = `eip155:${chainId}:${address.toLowerCase()}`;
    expect(after.pools.filter((pool) => pool.stale).map((pool) => pool.id)).to.deep.equal([silent]);
    expect(after.heldOut.pools).to.deep.equal([silent]);
    expect(after.total.pools).to.equal(after.pools.length - 1);
    expect(after.total.depthUsd).to.be.greaterThan(0);
    for (const pool of after.pools.filter((p) => p.id !== silent)) {
      expect(pool.observedAt).to.be.greaterThan(first!.expiry - FRESHNESS_S);
    }

    const res = await getJson(`/api/v1/pool/${id}`);
    expect(res.status, res.text).to.equal(200);
    const second = JSON.parse(res.text) as Served;
    expect(second.issuedAt).to.be.greaterThan(first!.issuedAt);
    expect(second.issuedAt).to.be.at.least(first!.expiry);
    const attestation = JSON.parse(res.text) as Parameters<typeof verifyAttestation>[0]["attestation"];
    expect(verifyAttestation({ attestation, address: attester })).to.deep.include({ valid: true, expired: false });
    expect(job.output.match(/ingestion pass: /g)?.length ?? 0).to.be.greaterThanOrEqual(3);
  });
});
