import { loadFixture, reset, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { ContractTransactionResponse } from "ethers";

import { VerifyGasCaller__factory } from "../../typechain-types";
import type { AttestationStruct } from "../helpers/eip712";
import { deployRegistryFixture, MIN_BOND, UNBONDING_PERIOD } from "../helpers/registryFixture";

/**
 * Gas snapshot of the registry. Figures are deterministic: fixed keys, fixed attestation values (so the signature and
 * the calldata are fixed), a fixed hardfork, and a fresh fixture per scenario. `npm run gas:snapshot` rewrites
 * `snapshots/AttestationRegistry.gas.json`; otherwise the test fails when any figure differs from the snapshot: a rise,
 * and also a drop that was not recorded.
 */
const SNAPSHOT_FILE = path.join(__dirname, "..", "..", "snapshots", "AttestationRegistry.gas.json");
const UPDATE = process.env.UPDATE_GAS_SNAPSHOT === "1";

/** Fixed values: the timestamps are constants so the signature bytes (and calldata gas) never change. */
const FIXED_ATTESTATION: AttestationStruct = {
  chainId: 8453n,
  pool: "0x1111111111111111111111111111111111111111",
  confidence: 85,
  horizonDays: 30,
  issuedAt: 1_700_000_000n,
  expiresAt: 4_000_000_000n,
};

async function gasUsed(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const receipt = await (await tx).wait();
  return Number(receipt!.gasUsed);
}

async function gasFixture() {
  const fixture = await deployRegistryFixture();
  const caller = await new VerifyGasCaller__factory(fixture.owner).deploy();
  const signature = await fixture.sign(FIXED_ATTESTATION);
  return { ...fixture, caller, signature };
}

/** The number of `it` blocks below that measure figures: an update must run them all. */
const MEASURING_TESTS = 3;

describe("AttestationRegistry gas", function () {
  const figures: Record<string, number> = {};
  let measuringTestsRun = 0;

  // Start from a fresh chain: in the full `npm test` run, earlier suites leave the deployer's nonce elsewhere, which
  // moves the registry address, hence the EIP-712 domain, the signature bytes and the calldata gas. `reset` also
  // clears the fixture snapshots, so later suites simply rebuild their fixtures.
  before(async function () {
    await reset();
  });

  it("measures verify from a calling contract (cold and warm), for attesters that never revoked and that revoked", async function () {
    const { registry, registryAddress, caller, attester, signature, digest } = await loadFixture(gasFixture);

    const clean = await caller.measure.staticCall(registryAddress, FIXED_ATTESTATION, signature);
    expect(clean.valid).to.equal(true);
    expect(clean.attester).to.equal(attester.address);
    figures["verify: cold, from a contract (attester never revoked)"] = Number(clean.cold);
    figures["verify: warm, from a contract (attester never revoked)"] = Number(clean.warm);

    // Revoke another digest: the has-revoked bit is set, so verify now also reads the revocation mapping.
    await registry.connect(attester).revoke(digest({ ...FIXED_ATTESTATION, issuedAt: 1n }));
    const revoked = await caller.measure.staticCall(registryAddress, FIXED_ATTESTATION, signature);
    expect(revoked.valid).to.equal(true);
    figures["verify: cold, from a contract (attester has revoked other digests)"] = Number(revoked.cold);
    figures["verify: warm, from a contract (attester has revoked other digests)"] = Number(revoked.warm);
    measuringTestsRun++;
  });

  it("measures the gasUsed of EOA transactions that call verify", async function () {
    const { registry, registryAddress, caller, signature } = await loadFixture(gasFixture);
    figures["verify: EOA transaction straight to the registry (gasUsed)"] = await gasUsed(
      registry.verify.send(FIXED_ATTESTATION, signature),
    );
    figures["verify: EOA transaction through VerifyGasCaller.check (gasUsed)"] = await gasUsed(
      caller.check(registryAddress, FIXED_ATTESTATION, signature),
    );
    measuringTestsRun++;
  });

  it("measures the lifecycle transactions", async function () {
    const { registry, attester, secondAttester, payer, beneficiary, owner, stranger, digest } =
      await loadFixture(gasFixture);

    figures["register"] = await gasUsed(
      registry.connect(secondAttester).register(beneficiary.address, { value: MIN_BOND }),
    );
    figures["addBond"] = await gasUsed(registry.connect(payer).addBond(attester.address, { value: MIN_BOND }));
    figures["revoke (first revocation of the attester)"] = await gasUsed(
      registry.connect(attester).revoke(digest({ ...FIXED_ATTESTATION, issuedAt: 1n })),
    );
    figures["revoke (later revocation)"] = await gasUsed(
      registry.connect(attester).revoke(digest({ ...FIXED_ATTESTATION, issuedAt: 2n })),
    );
    const batch = Array.from({ length: 10 }, (_, i) => digest({ ...FIXED_ATTESTATION, issuedAt: 100n + BigInt(i) }));
    figures["revokeBatch (10 digests)"] = await gasUsed(registry.connect(secondAttester).revokeBatch(batch));
    figures["slash (part of the bond)"] = await gasUsed(
      registry.connect(owner).slash(attester.address, MIN_BOND / 2n, stranger.address),
    );
    figures["requestUnbond"] = await gasUsed(registry.connect(attester).requestUnbond());
    figures["deregister (self)"] = await gasUsed(registry.connect(secondAttester).deregister());
    await time.increase(UNBONDING_PERIOD);
    figures["withdraw"] = await gasUsed(registry.connect(attester).withdraw());
    measuringTestsRun++;
  });

  after(function () {
    const keys = Object.keys(figures);
    console.log("\n  AttestationRegistry gas (solc 0.8.28, optimizer runs 1e6, cancun)");
    console.table(Object.fromEntries(keys.map((k) => [k, { gas: figures[k] }])));
  });

  it("matches the committed snapshot exactly (npm run gas:snapshot rewrites it)", function () {
    if (UPDATE) {
      // A filtered run (--grep) must not write a partial snapshot.
      expect(measuringTestsRun, "run the whole file to update the snapshot").to.equal(MEASURING_TESTS);
      writeFileSync(SNAPSHOT_FILE, `${JSON.stringify(figures, null, 2)}\n`);
      return;
    }
    expect(existsSync(SNAPSHOT_FILE), "snapshot missing: run npm run gas:snapshot").to.equal(true);
    const snapshot = JSON.parse(readFileSync(SNAPSHOT_FILE, "utf8")) as Record<string, number>;
    // Every snapshot figure must be measured in this run, so a filtered run (--grep) cannot pass without measuring.
    expect(Object.keys(figures).sort(), "measured keys differ from the snapshot's: run the whole file").to.deep.equal(
      Object.keys(snapshot).sort(),
    );
    // Exact: a rise fails, and so does a saving that was not recorded (the snapshot and the docs quoting it would
    // overstate the cost).
    const rose: string[] = [];
    const dropped: string[] = [];
    for (const [key, gas] of Object.entries(figures)) {
      expect(snapshot[key], `no snapshot figure for "${key}": run npm run gas:snapshot`).to.be.a("number");
      if (gas > snapshot[key]) rose.push(`${key}: ${snapshot[key]} -> ${gas}`);
      if (gas < snapshot[key]) dropped.push(`${key}: ${snapshot[key]} -> ${gas}`);
    }
    expect(rose, "rose above the snapshot").to.deep.equal([]);
    expect(dropped, "dropped below the snapshot: record the saving with npm run gas:snapshot").to.deep.equal([]);
  });
});
