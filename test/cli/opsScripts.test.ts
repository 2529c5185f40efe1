import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";

import { findRegistry, registerAttesterOnHardhat } from "../../scripts/register-attester";
import { hardhatAccount, hardhatPrivateKey } from "../helpers/actionsFixture";
import { deployFixture } from "../helpers/registryFixture";

const run = promisify(execFile);

describe("scripts/register-attester.ts", function () {
  it("registers Hardhat account #1 with the registry minimum when no key or bond is given", async function () {
    const { registry } = await loadFixture(deployFixture);
    const result = await registerAttesterOnHardhat(hre, { REGISTRY_ADDRESS: registry });
    expect(result).to.include({ command: "register", network: "hardhat" });
    expect(result.state).to.include({ attester: hardhatAccount(1).address, active: true, bondEth: "1" });
  });

  it("uses ATTESTER_PRIVATE_KEY, BOND and BENEFICIARY", async function () {
    const { registry } = await loadFixture(deployFixture);
    const result = await registerAttesterOnHardhat(hre, {
      REGISTRY_ADDRESS: registry,
      ATTESTER_PRIVATE_KEY: hardhatPrivateKey(4),
      BOND: "2.5",
      BENEFICIARY: hardhatAccount(5).address,
    });
    expect(result.state).to.include({
      attester: hardhatAccount(4).address,
      bondEth: "2.5",
      beneficiary: hardhatAccount(5).address,
    });
  });

  it("finds the registry in Ignition's deployed_addresses.json, or says how to deploy it", function () {
    const root = mkdtempSync(path.join(tmpdir(), "attest-ignition-"));
    try {
      expect(() => findRegistry({}, 31337, root)).to.throw(
        /^no registry on chain 31337: set REGISTRY_ADDRESS or deploy/,
      );
      mkdirSync(path.join(root, "ignition", "deployments", "chain-31337"), { recursive: true });
      const address = hardhatAccount(7).address;
      writeFileSync(
        path.join(root, "ignition", "deployments", "chain-31337", "deployed_addresses.json"),
        JSON.stringify({ "AttestationRegistryModule#AttestationRegistry": address.toLowerCase() }),
      );
      expect(findRegistry({}, 31337, root)).to.equal(address);
      expect(findRegistry({ REGISTRY_ADDRESS: hardhatAccount(8).address }, 31337, root)).to.equal(
        hardhatAccount(8).address,
      );
      expect(() => findRegistry({ REGISTRY_ADDRESS: "nope" }, 31337, root)).to.throw(
        "REGISTRY_ADDRESS is not an address",
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("run through `hardhat run`, fails with one line and exit 1 when the registry address holds no code", async function () {
    const hardhatBin = require.resolve("hardhat/internal/cli/bootstrap");
    const failed = await run(process.execPath, [hardhatBin, "run", "--no-compile", "scripts/register-attester.ts"], {
      cwd: path.join(__dirname, "..", ".."),
      env: { ...process.env, REGISTRY_ADDRESS: hardhatAccount(9).address },
    }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).to.equal(1);
    expect((failed as { stderr: string }).stderr.trim().split("\n").pop()).to.equal(
      `register-attester: no contract at ${hardhatAccount(9).address} on chain 31337: check --registry / REGISTRY_ADDRESS and that --rpc / RPC_URL points at the chain it was deployed on`,
    );
  });
});
