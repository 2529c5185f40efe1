import { expect } from "chai";
import type { Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { issueAttestations } from "../../src/attest/issueAttestations";
import type { PoolConfig } from "../../src/model/poolConfig";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { sql } from "kysely";
import { listActivity } from "../../src/storage/activity";
import { getLatestAttestation } from "../../src/storage/attestations";
import { merklOpportunitiesResponseSchema } from "../../src/ingest/feeds/merkl";
import { campaignRows } from "../../src/ingest/rows/campaignRows";
import { upsertCampaigns } from "../../src/storage/campaigns";
import type { Store } from "../../src/storage/openStore";
import { getPool } from "../../src/storage/pools";
import { createLocalSigner } from "../../src/attest/signer";
import { readObservedPools } from "../../src/attest/observedPools";
import { ISSUER_RULE } from "../../src/attest/refreshModelEvaluation";
import { createPrng } from "../../src/demo/prng";
import { formatPoolId } from "../../src/lib/formatPoolId";
import { MIN_EFFECTIVE_WINDOWS } from "../../src/model/calibration";
import { walkForward } from "../../src/model/evaluateModel";
import { ISSUING_MODEL } from "../../src/model/horizon";
import { PooledCalibrations } from "../../src/model/pooledCalibration";
import { dayNumber } from "../../src/model/windowSeries";
import { recordDailyDepth, utcDay } from "../../src/storage/poolDaily";
import { upsertPool } from "../../src/storage/pools";
import { DAY, NOW, POOL as STEADY_POOL, START, seedSteadyPool } from "../helpers/attest/steadyPool";
import { fixture } from "../helpers/ingest/routeServer";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

const KEY: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const POOL: PoolConfig = { ...STEADY_POOL, merklId: "777" };

describe("issueAttestations", () => {
  let temp: TempStore;
  let store: Store;

  beforeEach(async () => {
    temp = await openTempStore({ prefix: "issue-" });
    store = temp.store;
    // 41 days of steady depth (days 0..40), the last observation 10 minutes before NOW.
    await seedSteadyPool(store.db, { pool: POOL, values: { merkl_id: "777" } });
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  const issue = (overrides: Partial<Parameters<typeof issueAttestations>[0]> = {}) =>
    issueAttestations({
      db: store.db,
      pools: [POOL],
      signer: createLocalSigner(KEY),
      lifetimeS: DAY,
      now: NOW,
      freshnessWindowS: 3600,
      ...overrides,
    });

  it("signs the longest supported horizon through the library and stores the claim", async () => {
    // 40 complete days: 7d has 33 windows, 14d 26, 30d 10, 60d none. The issuing model (v6) finds no other pool's
    // windows to calibrate on, so the conservative prior (v2) decides: 14d (2·26 + 14) / (2·26 + 28) = 0.825 → 0.82;
    // 30d (20 + 30) / (20 + 60) = 0.625, below the target.
    const [outcome] = await issue();
    expect(outcome).to.include({ action: "issued", horizonDays: 14, confidenceHundredths: 82 });
    const row = (await getLatestAttestation(store.db, 8453, POOL.address))!;
    expect(row.canonical).to.equal(
      `{"chainId":"8453","confidence":"0.82","expiresAt":"${NOW + DAY}","horizonDays":"14","issuedAt":"${NOW}","pool":"${POOL.address}","v":"1"}`,
    );
    expect(row).to.include({
      floor: 0.5,
      depth_at_issuance_usd: 1_000_000,
      outcome: "pending",
      model: ISSUING_MODEL.id,
      eip712_json: null,
    });
    const check = verifyAttestation({
      attestation: {
        chainId: 8453,
        confidence: 0.82,
        expiry: row.expiry,
        horizon: 14,
        issuedAt: NOW,
        pool: POOL.address,
        signature: row.signature,
      },
      address: privateKeyToAddress(KEY),
      time: new Date(NOW * 1000),
    });
    expect(check.valid).to.equal(true);
  });

  it("signs with the pooled calibration of the other pools' windows: the claim the evaluation replays for yesterday", async () => {
    // Nine more pools, 160 days each (from day -120), a wander with withdrawals: enough pooled windows to fit maps.
    const pools: PoolConfig[] = Array.from({ length: 9 }, (_, i) => ({
      ...STEADY_POOL,
      address: `0x${(0xb0 + i).toString(16).padStart(40, "0")}`,
      symbol: `P${i}`,
    }));
    for (const [i, pool] of pools.entries()) {
      const rng = createPrng(100 + i);
      let depth = 1_000_000;
      for (let day = -120; day <= 40; day++) {
        depth *= rng.chance(0.03) ? rng.between(0.3, 0.7) : rng.between(0.97, 1.03);
        depth = Math.min(depth, 3_000_000);
        const at = day === 40 ? NOW - 600 : START + day * DAY;
        await recordDailyDepth(store.db, { ...pool, depthUsd: depth, observedAt: at, block: String(day + 200) });
      }
      await upsertPool(store.db, {
        ...pool,
        values: { depth_usd: depth, depth_observed_at: NOW - 600, depth_block: "241" },
        now: NOW - 600,
      });
    }
    const outcomes = await issue({ pools: [POOL, ...pools] });
    const lastDay = utcDay(NOW - DAY);
    const observed = await readObservedPools(store.db, { lastDay });
    expect(observed).to.have.length(10);
    const rule = { ...ISSUER_RULE, model: ISSUING_MODEL };
    const pooled = new PooledCalibrations(observed, rule, lastDay);
    let fitted = 0;
    for (const [i, pool] of [POOL, ...pools].entries()) {
      const id = formatPoolId(pool);
      const calibration = pooled.forPool(id)(dayNumber(lastDay));
      // The 7-day map is fitted on the other pools' windows (not the prior): the claim reads the pooled evidence.
      if (calibration[0].effectiveWindows >= MIN_EFFECTIVE_WINDOWS) fitted++;
      const replayed = walkForward(
        observed.find((p) => p.pool === id)!,
        rule,
        lastDay,
        pooled.forPool(id),
      ).find((c) => c.asOf === lastDay);
      const outcome = outcomes[i];
      if (replayed === undefined) {
        expect(outcome.action, id).to.equal("none");
      } else {
        expect(outcome, id).to.include({
          action: "issued",
          horizonDays: replayed.horizon,
          confidenceHundredths: Math.round(replayed.confidence * 100),
        });
      }
    }
    expect(fitted).to.equal(10);
    expect(outcomes.filter((o) => o.action === "issued").length).to.be.at.least(5);
  });

  it("shortens the horizon to a known campaign end of the pool's Merkl opportunity", async () => {
    await upsertCampaigns(store.db, [
      {
        id: "c",
        distributionChainId: 8453,
        chainId: 8453,
        opportunityId: "777",
        identifier: POOL.address,
        name: null,
        type: null,
        status: "LIVE",
        rewardToken: null,
        amount: null,
        aprPercent: null,
        startsAt: START,
        endsAt: NOW + 10 * DAY,
        observedAt: NOW,
      },
      {
        id: "other",
        distributionChainId: 1,
        chainId: 1,
        opportunityId: "777",
        identifier: POOL.address,
        name: null,
        type: null,
        status: "LIVE",
        rewardToken: null,
        amount: null,
        aprPercent: null,
        startsAt: START,
        endsAt: NOW + 2 * DAY,
        observedAt: NOW,
      },
    ]);
    const [outcome] = await issue();
    // 10 whole days left: the 14-day claim is capped to 7 days ((2·33 + 7) / (2·33 + 14) = 0.9125).
    expect(outcome).to.include({ action: "issued", horizonDays: 7, confidenceHundredths: 91 });
  });

  it("never caps the horizon at a borrow-side campaign of the pool's identifier, only at its supply side's", async () => {
    // The recorded listing's lending reserve: one identifier, a supply and a borrow opportunity, here on the pool.
    const reserve = merklOpportunitiesResponseSchema
      .parse(fixture("merkl-opportunities.json"))
      .filter((o) => o.identifier.toLowerCase() === "0x724dc807b04555b71ed48a6896b6f41593b8c637")
      .map((o) => ({
        ...o,
        chainId: 8453,
        identifier: POOL.address,
        campaigns: o.campaigns.map((c) => ({
          ...c,
          startTimestamp: START,
          endTimestamp: NOW + (o.type.includes("BORROW") ? 2 : 10) * DAY,
        })),
      }));
    expect(reserve.map((o) => o.type)).to.deep.equal(["AAVE_SUPPLY", "AAVE_BORROW"]);
    await upsertCampaigns(store.db, campaignRows({ opportunities: reserve, observedAt: NOW }));
    const [outcome] = await issue({ pools: [{ ...POOL, merklId: POOL.address }] });
    // Capped by the supply campaign (10 days left), not by the borrow one (2 days left: no horizon at all).
    expect(outcome).to.include({ action: "issued", horizonDays: 7 });
  });

  it("issues nothing on stale depth and records why on the pool", async () => {
    const [outcome] = await issue({ now: NOW + 3601 });
    expect(outcome).to.deep.equal({
      chainId: 8453,
      address: POOL.address,
      action: "none",
      reason: "no fresh depth observation",
    });
    expect((await getPool(store.db, 8453, POOL.address))!).to.include({
      issue_reason: "no fresh depth observation",
      issue_checked_at: NOW + 3601,
    });
    expect(await getLatestAttestation(store.db, 8453, POOL.address)).to.equal(undefined);
  });

  it("keeps an unexpired attestation with the same inputs and re-issues when the claim's parameters change", async () => {
    expect((await issue())[0].action).to.equal("issued");
    expect((await issue({ now: NOW + 60 }))[0].action).to.equal("kept");
    const changed = await issue({ now: NOW + 120, floor: 0.6 });
    expect(changed[0].action).to.equal("issued");
    expect((await getLatestAttestation(store.db, 8453, POOL.address))!.floor).to.equal(0.6);
  });

  it("adds the v2 EIP-712 block bound to the registry when one is configured", async () => {
    await issue({ registry: { chainId: 31337, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" } });
    const eip712 = JSON.parse((await getLatestAttestation(store.db, 8453, POOL.address))!.eip712_json!);
    expect(eip712.domain).to.deep.equal({
      name: "AttestationRegistry",
      version: "1",
      chainId: "31337",
      verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    });
    expect(eip712.primaryType).to.equal("Attestation");
    expect(Object.keys(eip712.types)).to.deep.equal(["Attestation"]);
    expect(eip712.message).to.deep.equal({
      chainId: "8453",
      pool: POOL.address,
      confidence: "82",
      horizonDays: "14",
      issuedAt: String(NOW),
      expiresAt: String(NOW + DAY),
    });
    expect(eip712.signature).to.match(/^0x[0-9a-f]{130}$/);
  });

  describe("events", () => {
    it("appends one attestation.issued per stored attestation, with its id, horizon, confidence and expiry", async () => {
      await issue();
      await issue({ now: NOW + 60 }); // kept: no event
      const row = (await getLatestAttestation(store.db, 8453, POOL.address))!;
      const events = await listActivity(store.db, { limit: 10, beforeId: null, kinds: ["attestation.issued"] });
      expect(events).to.have.length(1);
      expect(events[0]).to.include({ kind: "attestation.issued", at: NOW, chain_id: 8453, address: POOL.address });
      expect(JSON.parse(events[0].data_json)).to.deep.equal({
        poolId: `eip155:8453:${POOL.address}`,
        attestationId: row.id,
        horizon: 14,
        confidence: 0.82,
        expiry: NOW + DAY,
        issuedAt: NOW,
      });
      expect(events[0].summary).to.match(/^Attestation issued for WETH-USDC eip155:8453:0x0+aa: horizon 14 days/);
    });

    it("stores the attestation and its event together or not at all", async () => {
      await sql`drop table activity_events`.execute(store.db);
      let failed = false;
      try {
        await issue();
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect(await getLatestAttestation(store.db, 8453, POOL.address)).to.equal(undefined);
    });
  });
});
