import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { gradeClaims } from "../../src/attest/gradeClaims";
import { issueAttestations } from "../../src/attest/issueAttestations";
import { createLocalSigner } from "../../src/attest/signer";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { loadConfig } from "../../src/config/loadConfig";
import { createServer } from "../../src/service/server";
import { getLatestAttestation } from "../../src/storage/attestations";
import { recordDailyDepth } from "../../src/storage/poolDaily";
import { DAY, NOW, POOL, START, seedSteadyPool } from "../helpers/attest/steadyPool";
import { TEST_ATTESTER, TEST_KEY, openTempStore } from "../helpers/service/app";
import { listenLoopback } from "../helpers/service/opsApp";

const dayStart = (n: number) => Math.floor(START / DAY) * DAY + n * DAY;

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), readStdin: async () => "", env: {} };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("attest grade: the accuracy record recomputed from a live service's public history", function () {
  let temp: Awaited<ReturnType<typeof openTempStore>>;
  let app: FastifyInstance;
  let url: string;
  let horizon: number;

  before(async function () {
    temp = await openTempStore();
    const db = temp.store.db;
    await seedSteadyPool(db, { now: NOW });
    const outcomes = await issueAttestations({
      db,
      pools: [POOL],
      signer: createLocalSigner(TEST_KEY),
      lifetimeS: DAY,
      now: NOW,
      freshnessWindowS: 3600,
    });
    expect(outcomes.map((o) => o.action)).to.deep.equal(["issued"]);
    horizon = Number((await getLatestAttestation(db, POOL.chainId, POOL.address))!.horizon_days);
    for (let day = 41; day <= 40 + horizon; day++) {
      const depthUsd = day === 42 ? 700_000 : 950_000;
      await recordDailyDepth(db, { ...POOL, depthUsd, observedAt: dayStart(day) + 3600, block: String(1000 + day) });
    }
    const now = dayStart(41 + horizon) + 3600;
    expect(await gradeClaims(db, { now })).to.deep.equal({ held: 1, failed: 0, void: 0 });
    app = await createServer({
      store: temp.store,
      config: loadConfig({ env: { LOG_LEVEL: "silent" } }),
      attester: { address: TEST_ATTESTER, registry: null },
      now: () => now,
    });
    url = await listenLoopback(app);
  });

  after(async function () {
    await app?.close();
    await temp?.cleanup();
  });

  it("agrees with the service: exit 0, the claim's signature checked against the pinned attester", async function () {
    const { code, out } = await run(["grade", "--url", url, "--attester", TEST_ATTESTER]);
    expect(code).to.equal(0);
    expect(JSON.parse(out.at(-1)!)).to.include({ pools: 1, claims: 1, held: 1, disagreements: 0, outsideHistory: 0 });
  });

  it("takes the served attester when none is pinned, and says so", async function () {
    const { code, err } = await run(["grade", "--url", url, "--pool", `eip155:${POOL.chainId}:${POOL.address}`]);
    expect(code).to.equal(0);
    expect(err.join("\n")).to.match(/expected attester 0x[0-9a-fA-F]{40} taken from the service/);
  });

  it("exits 1 naming the claim when the signer is not the expected attester", async function () {
    const other = "0x1111111111111111111111111111111111111111";
    const { code, out } = await run(["grade", "--url", url, "--attester", other]);
    expect(code).to.equal(1);
    const line = JSON.parse(out[0]) as { pool: string; issuedAt: number; problems: string[] };
    expect(line.issuedAt).to.equal(NOW);
    expect(line.problems.join(" ")).to.match(/signature not valid/);
  });

  it("exits 1 naming the claim when the history no longer supports the served grade", async function () {
    // The history now shows a window day below the floor: the served "held" disagrees with it.
    await temp.store.db
      .updateTable("pool_daily")
      .set({ min_depth_usd: 100 })
      .where("day", "=", new Date(dayStart(43) * 1000).toISOString().slice(0, 10))
      .execute();
    // A new server: the first one's response cache still holds the history it served.
    const altered = await createServer({
      store: temp.store,
      config: loadConfig({ env: { LOG_LEVEL: "silent" } }),
      attester: { address: TEST_ATTESTER, registry: null },
      now: () => dayStart(41 + horizon) + 3600,
    });
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(["grade", "--url", await listenLoopback(altered), "--attester", TEST_ATTESTER]);
    } finally {
      await altered.close();
    }
    const { code, out } = result;
    expect(code).to.equal(1);
    const line = JSON.parse(out[0]) as { issuedAt: number; problems: string[] };
    expect(line.issuedAt).to.equal(NOW);
    expect(line.problems.join(" ")).to.match(/served held .* but the history gives failed \(100 on /);
  });

  it("refuses a missing or bad --url with a usage error", async function () {
    expect((await run(["grade"])).code).to.equal(64);
    expect((await run(["grade", "--url", "ftp://x"])).code).to.equal(64);
    expect((await run(["grade", "--url", url, "--attester", "0x12"])).code).to.equal(64);
  });
});
