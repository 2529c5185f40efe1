import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect } from "chai";
import type { Abi, Address, Hex } from "viem";
import contractsManifest from "../../packages/contracts/package.json";
import { getAttestationTypedData, signTypedAttestation } from "../../src";
import v2 from "../vectors/attestation-v2.json";
import { exec, npm, pack, type Packed, ROOT } from "./npm";

/** The contracts (and interfaces) the package ships an artifact and an ABI of. */
const ARTIFACTS = ["AttestationRegistry", "IAttestationRegistry", "ListingGuard"];

/** The package as a consumer sees it in node_modules, from the directory of a project's own sources. */
const PACKAGE = "@attestation-registry/contracts";

/** The fenced blocks of one language in a Markdown file, in order. */
function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((match) => match[1]);
}

/**
 * The Foundry test of PoolGate: deploys the registry from the package's Hardhat artifact (`deployCode` reads it),
 * registers a key, signs the registry's own digest with it (`vm.sign`) and requires PoolGate to answer valid, from that
 * key. `TAMPER=true` raises the confidence after signing: the same assertion must then fail.
 */
const POOL_GATE_FORGE_TEST = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Attestation} from "${PACKAGE}/contracts/Common.sol";
import {IAttestationRegistry} from "${PACKAGE}/contracts/IAttestationRegistry.sol";
import {PoolGate} from "../src/PoolGate.sol";

interface Vm {
    function addr(uint256 privateKey) external pure returns (address);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    function deal(address account, uint256 newBalance) external;
    function prank(address sender) external;
    function envOr(string calldata name, bool defaultValue) external view returns (bool);
    function deployCode(string calldata artifactPath, bytes calldata constructorArgs) external returns (address);
}

contract PoolGateTest {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    uint256 internal constant KEY = 0xA11CE;

    function test_verifiesSignedAttestation() public {
        IAttestationRegistry registry = IAttestationRegistry(
            vm.deployCode(
                "node_modules/${PACKAGE}/artifacts/AttestationRegistry.json",
                abi.encode(address(this), 1 ether, uint64(7 days))
            )
        );
        address attester = vm.addr(KEY);
        vm.deal(attester, 1 ether);
        vm.prank(attester);
        registry.register{value: 1 ether}(attester);
        PoolGate gate = new PoolGate(registry);
        Attestation memory a = Attestation(8453, 0x1111111111111111111111111111111111111111, 85, 30, 1, 4_000_000_000);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(KEY, registry.hashAttestation(a));
        if (vm.envOr("TAMPER", false)) a.confidence += 1;
        (bool valid, address who) = gate.check(a, abi.encodePacked(r, s, v));
        require(valid && who == attester, "the registry rejected the attestation");
    }
}
`;

/**
 * What the Hardhat project's script does on Hardhat's in-process network (after \`hardhat run\` compiled PoolGate): deploys
 * the registry and ListingGuard from the package's artifacts (viem over Hardhat's EIP-1193 provider), registers the
 * attester of input.json, asks PoolGate about each attestation of input.json, lists the first through ListingGuard,
 * and prints one JSON line.
 */
const HARDHAT_SCRIPT = `const hre = require("hardhat");
const { createPublicClient, createWalletClient, custom, parseEther } = require("viem");
const { privateKeyToAccount } = require("viem/accounts");
const { hardhat: chain } = require("viem/chains");
const registryArtifact = require("${PACKAGE}/artifacts/AttestationRegistry.json");
const registryAbi = require("${PACKAGE}/abi/AttestationRegistry.json");
const guardArtifact = require("${PACKAGE}/artifacts/ListingGuard.json");
const input = require("../input.json");

async function main() {
  const transport = custom(hre.network.provider);
  const client = createPublicClient({ chain, transport, pollingInterval: 10 });
  const [deployer] = await client.request({ method: "eth_accounts" });
  const owner = createWalletClient({ chain, transport, account: deployer });
  const attester = createWalletClient({ chain, transport, account: privateKeyToAccount(input.attesterKey) });
  const mined = async (hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const deploy = async ({ abi, bytecode }, args) =>
    (await mined(await owner.deployContract({ abi, bytecode, args }))).contractAddress;

  const registry = await deploy(registryArtifact, [deployer, parseEther("1"), 7n * 86400n]);
  await mined(await owner.sendTransaction({ to: attester.account.address, value: parseEther("2") }));
  await mined(
    await attester.writeContract({
      address: registry, abi: registryAbi, functionName: "register", args: [attester.account.address], value: parseEther("1"),
    }),
  );
  const gateArtifact = await hre.artifacts.readArtifact("PoolGate");
  const gate = await deploy(gateArtifact, [registry]);
  const guard = await deploy(guardArtifact, [registry, 30, 80, attester.account.address]);

  const struct = (m) => ({ chainId: BigInt(m.chainId), pool: m.pool, confidence: Number(m.confidence),
    horizonDays: Number(m.horizonDays), issuedAt: BigInt(m.issuedAt), expiresAt: BigInt(m.expiresAt) });
  const checks = [];
  for (const { id, message, signature } of input.attestations) {
    const [valid, recovered] = await client.readContract({
      address: gate, abi: gateArtifact.abi, functionName: "check", args: [struct(message), signature],
    });
    checks.push({ id, valid, attester: recovered });
  }
  const [first] = input.attestations;
  await mined(
    await owner.writeContract({ address: guard, abi: guardArtifact.abi, functionName: "list", args: [struct(first.message), first.signature] }),
  );
  const listed = await client.readContract({
    address: guard, abi: guardArtifact.abi, functionName: "isListed", args: [BigInt(first.message.chainId), first.message.pool],
  });
  console.log("RESULT " + JSON.stringify({ registry, checks, listed }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * A Foundry test that compiles the registry from the package's source (OpenZeppelin through the README's remapping)
 * and deploys it with `new`.
 */
const REGISTRY_FROM_SOURCE_FORGE_TEST = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AttestationRegistry} from "${PACKAGE}/contracts/AttestationRegistry.sol";

contract RegistryFromSourceTest {
    function test_registryFromSource() public {
        AttestationRegistry registry = new AttestationRegistry(address(this), 1 ether, 7 days);
        require(registry.minBond() == 1 ether && registry.unbondingPeriod() == 7 days, "constructor arguments");
    }
}
`;

/** The Solidity sources the package must ship: every .sol of the repository's contracts/ but the test harnesses. */
function repositorySources(dir = join(ROOT, "contracts")): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "test" ? [] : repositorySources(path);
      return entry.name.endsWith(".sol") ? [relative(ROOT, path)] : [];
    })
    .sort();
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

/**
 * @attestation-registry/contracts as an integrator gets it: `npm pack` (its prepack copies the sources from contracts/
 * and the artifacts from Hardhat's artifacts/), then the tarball installed (`--offline`: it has no dependencies) into a
 * Hardhat project and a Foundry project this test makes.
 *
 * The Hardhat project links the repository's own `hardhat` and `viem` into its node_modules instead of installing
 * them: installing hardhat 2.29.1 from the npm cache takes about 30 s here (241 packages, 379 MB) and gives the same
 * files; Hardhat accepts a linked installation (it compares real paths). It cannot download a compiler here, so its
 * config hands Hardhat the repository's `solc/soljson.js`, as the repository's hardhat.config.ts does. The Foundry
 * project runs the platform forge binary through scripts/run-forge.js (which fails on a failed or missing test) with
 * the repository's solc wrapper, offline, on the README's remappings alone; it links the repository's OpenZeppelin
 * (the optional peer) to compile the registry from source.
 */
describe("packages/contracts: the tarball, installed in fresh Hardhat and Foundry projects", function () {
  this.timeout(240_000);
  let dir: string;
  let packed: Packed;
  let hardhatProject: string;
  let foundryProject: string;
  /** The README's quick-start contract and Foundry remapping. */
  let poolGate: string;
  let remappings: string;
  let openZeppelinRemapping: string;

  /** A fresh project with the package's tarball installed. */
  async function project(name: string): Promise<string> {
    const path = join(dir, name);
    mkdirSync(path);
    writeFileSync(join(path, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true }));
    await npm(["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", packed.tarball], path);
    return path;
  }

  /** Writes `files` (path → content) into a project. */
  function write(project: string, files: Record<string, string>) {
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(join(project, file, ".."), { recursive: true });
      writeFileSync(join(project, file), content);
    }
  }

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "contracts-package-"));
    packed = await pack(contractsManifest.name, dir);
    [hardhatProject, foundryProject] = await Promise.all([project("hardhat-consumer"), project("foundry-consumer")]);
    // The consumer contract and the Foundry remapping are the README's quick start, as installed.
    const readme = readFileSync(join(hardhatProject, "node_modules", PACKAGE, "README.md"), "utf8");
    [poolGate] = codeBlocks(readme, "solidity");
    [remappings] = codeBlocks(readme, "toml");
    [, openZeppelinRemapping] = /in Foundry also remap `([^`]+)`/.exec(readme) ?? [undefined, "(not in the README)"];
    const solc = join(ROOT, "node_modules", "solc");
    write(hardhatProject, {
      "contracts/PoolGate.sol": poolGate,
      "scripts/check.js": HARDHAT_SCRIPT,
      "hardhat.config.js": `const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");

// No compiler download: the solc-js build the repository pins, as its hardhat.config.ts does.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion !== "0.8.28") return runSuper();
  const longVersion = require(${JSON.stringify(solc)}).version().replace(/\\.Emscripten\\.clang$/, "");
  return { compilerPath: ${JSON.stringify(join(solc, "soljson.js"))}, isSolcJs: true, version: "0.8.28", longVersion };
});

module.exports = {
  solidity: { version: "0.8.28", settings: { evmVersion: "cancun" } },
  // The held v2 vectors were signed for 2025-12 (issuedAt ${v2.cases[0].message.issuedAt}): the chain starts then.
  networks: { hardhat: { hardfork: "cancun", initialDate: "${new Date(Number(v2.cases[0].message.issuedAt) * 1000).toISOString()}" } },
};
`,
    });
    write(foundryProject, {
      "src/PoolGate.sol": poolGate,
      "test/PoolGate.t.sol": POOL_GATE_FORGE_TEST,
      "test/RegistryFromSource.t.sol": REGISTRY_FROM_SOURCE_FORGE_TEST,
      // Only the declared remappings: forge would otherwise find node_modules/ by itself and prove nothing about them.
      "foundry.toml": `[profile.default]
src = "src"
test = "test"
out = "out"
cache_path = "cache"
libs = ["lib"]
auto_detect_remappings = false
offline = true
solc = ${JSON.stringify(join(ROOT, "scripts", "solc-forge.js"))}
evm_version = "cancun"
${remappings}fs_permissions = [{ access = "read", path = "./node_modules/${PACKAGE}/artifacts" }]
`,
      "remappings.txt": `${openZeppelinRemapping}\n`,
    });
    for (const name of ["hardhat", "viem"])
      symlinkSync(join(ROOT, "node_modules", name), join(hardhatProject, "node_modules", name), "dir");
    // The optional peer, for compiling the registry from source: the repository's pinned 5.7.0, linked (npm has its
    // tarball cached but not its metadata, so an offline install cannot resolve it).
    mkdirSync(join(foundryProject, "node_modules", "@openzeppelin"));
    symlinkSync(
      join(ROOT, "node_modules", "@openzeppelin", "contracts"),
      join(foundryProject, "node_modules", "@openzeppelin", "contracts"),
      "dir",
    );
  });

  after(function () {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships the sources, artifacts, ABIs, README and CHANGELOG, and nothing else (no tests, fixtures, maps or build info)", function () {
    const paths = packed.files.map((file) => file.path).sort();
    const artifacts = ARTIFACTS.flatMap((name) => [`abi/${name}.json`, `artifacts/${name}.json`]);
    expect(paths).to.deep.equal(
      ["CHANGELOG.md", "README.md", "package.json", ...artifacts, ...repositorySources()].sort(),
    );
    // What the exact list above rules out, said for whoever changes it.
    expect(
      paths.filter((path) => /(^|\/)(tests?|fixtures?|vectors|scripts)(\/|$)|\.(map|dbg\.json|t\.sol)$/.test(path)),
    ).to.deep.equal([]);
    console.log(
      `      ${packed.tarball.split("/").pop()}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${paths.length} files`,
    );
  });

  it("installs each source byte for byte (NatSpec intact), each artifact as Hardhat compiled it, each ABI from its artifact", function () {
    const installed = join(hardhatProject, "node_modules", PACKAGE);
    for (const source of repositorySources())
      expect(readFileSync(join(installed, source), "utf8"), source).to.equal(readFileSync(join(ROOT, source), "utf8"));
    // The NatSpec block above `verify`, as a consumer's tooling reads it.
    const [, verifyDoc] = /((?:[ \t]*\/\/\/.*\n)+)[ \t]*function verify\(/.exec(
      readFileSync(join(installed, "contracts", "IAttestationRegistry.sol"), "utf8"),
    ) ?? [undefined, ""];
    for (const tag of [
      "@notice",
      "@dev Never reverts",
      "@param a ",
      "@param signature ",
      "@return valid ",
      "@return attester ",
    ])
      expect(verifyDoc, tag).to.include(`/// ${tag}`);
    for (const name of ARTIFACTS) {
      const shipped = readJson<{ contractName: string; abi: Abi; bytecode: Hex; sourceName: string }>(
        join(installed, "artifacts", `${name}.json`),
      );
      expect(shipped.contractName).to.equal(name);
      const compiled = readJson<typeof shipped>(join(ROOT, "artifacts", shipped.sourceName, `${name}.json`));
      expect(shipped, name).to.deep.equal(compiled);
      expect(repositorySources(), name).to.include(shipped.sourceName);
      expect(readJson<Abi>(join(installed, "abi", `${name}.json`)), name).to.deep.equal(compiled.abi);
    }
  });

  it("documents a quick start of ten lines of Solidity and the Foundry remapping", function () {
    expect(poolGate).to.include(`import {IAttestationRegistry} from "${PACKAGE}/contracts/IAttestationRegistry.sol";`);
    expect(
      poolGate
        .trim()
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.trim().startsWith("//")).length,
    ).to.be.at.most(10);
    expect(remappings).to.equal(`remappings = ["${PACKAGE}/=node_modules/${PACKAGE}/"]\n`);
    expect(openZeppelinRemapping).to.equal("@openzeppelin/=node_modules/@openzeppelin/");
  });

  it("declares what integrators rely on: version, publishConfig, no dependency (npm installs the package alone), OpenZeppelin an optional peer", function () {
    expect(contractsManifest.version).to.equal("0.1.0");
    expect(contractsManifest.publishConfig).to.deep.equal({ access: "public", provenance: true });
    expect(contractsManifest).not.to.have.property("dependencies");
    // Only compiling AttestationRegistry.sol from source needs OpenZeppelin (ReentrancyGuardTransient came in 5.1).
    expect(contractsManifest.peerDependencies).to.deep.equal({ "@openzeppelin/contracts": "^5.1.0" });
    expect(contractsManifest.peerDependenciesMeta["@openzeppelin/contracts"].optional).to.equal(true);
    for (const project of [hardhatProject, foundryProject])
      expect(Object.keys(readJson<{ packages: object }>(join(project, "package-lock.json")).packages)).to.deep.equal([
        "",
        `node_modules/${PACKAGE}`,
      ]);
  });

  it("a Hardhat project compiles a consumer of the interface, deploys the registry from the package's artifact and verifies signed attestations through it", async function () {
    const [vector] = v2.cases;
    const attestation = { ...vector.attestation, pool: "0x2222222222222222222222222222222222222222", horizon: 45 };
    const signed = {
      message: getAttestationTypedData({ attestation, registry: vector.registry }).message,
      signature: await signTypedAttestation({
        attestation,
        registry: vector.registry,
        privateKey: v2.attester.privateKey as Hex,
      }),
    };
    const input = {
      attesterKey: v2.attester.privateKey,
      attestations: [
        // Held vector (signed by ethers, independently of src/lib) for the first contract of account 0 on 31337.
        { id: "vector", message: vector.message, signature: vector.signature },
        // Signed here by the repository's library (what @attestation-registry/sdk ships).
        { id: "library", message: { ...signed.message }, signature: signed.signature },
        // The vector's signature over another confidence: must not verify.
        { id: "tampered", message: { ...vector.message, confidence: "86" }, signature: vector.signature },
      ],
    };
    writeFileSync(
      join(hardhatProject, "input.json"),
      JSON.stringify(input, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)),
    );

    const hardhat = join(hardhatProject, "node_modules", "hardhat", "internal", "cli", "bootstrap.js");
    const { stdout } = await exec(process.execPath, [hardhat, "run", "scripts/check.js"], hardhatProject, {
      HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
    });
    expect(stdout).to.match(/Compiled 3 Solidity files successfully/);
    const result = JSON.parse(stdout.slice(stdout.indexOf("RESULT ") + "RESULT ".length)) as {
      registry: Address;
      checks: { id: string; valid: boolean; attester: Address }[];
      listed: boolean;
    };
    // The address the vector's signature is bound to: the registry deployed from the artifact is that contract.
    expect(result.registry.toLowerCase()).to.equal(vector.registry.address.toLowerCase());
    expect(result.checks).to.deep.equal([
      { id: "vector", valid: true, attester: v2.attester.address },
      { id: "library", valid: true, attester: v2.attester.address },
      { id: "tampered", valid: false, attester: result.checks[2].attester },
    ]);
    expect(result.checks[2].attester).not.to.equal(v2.attester.address);
    expect(result.listed, "ListingGuard (from the package's artifact) listed the vector's pool").to.equal(true);
  });

  it("a Foundry project compiles the consumer and the registry's source through the documented remappings, and its forge tests pass; tampered, the consumer's fails", async function () {
    const runForge = (env: NodeJS.ProcessEnv) =>
      exec(process.execPath, [join(ROOT, "scripts", "run-forge.js"), "--project", foundryProject], ROOT, {
        FOUNDRY_PROFILE: "default",
        ...env,
      });
    const passed = await runForge({});
    // forge resolved every import itself, through the remappings: when it cannot, it says so and hands the import to
    // the compiler, and the repository's solc wrapper would find it in the repository instead of this project.
    expect(`${passed.stdout}\n${passed.stderr}`).not.to.include("Unable to resolve imports");
    expect(passed.stdout).to.match(/\[PASS\] test_verifiesSignedAttestation\(\)/);
    expect(passed.stdout).to.match(/\[PASS\] test_registryFromSource\(\)/);
    expect(passed.stdout).to.match(/2 tests passed, 0 failed/);
    let failure: unknown;
    await runForge({ TAMPER: "true" }).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(
      /\[FAIL: the registry rejected the attestation\] test_verifiesSignedAttestation\(\)/,
    );
    expect(String(failure)).to.match(/run-forge: Foundry suite failed \(exit 1; .*1 tests? passed, 1 failed\)/);
  });
});

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe("packages/contracts/scripts/build.mjs: ships an artifact only if it was compiled from the shipped sources", function () {
  this.timeout(60_000);
  let repository: string;
  let out: string;
  const common = "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\n\nstruct S {\n    uint256 x;\n}\n";
  const iface = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\n\nimport {S} from "./Common.sol";\n\n/// @notice A test interface.\ninterface IFoo {\n    function f(S calldata s) external;\n}\n`;
  const abi = [{ type: "function", name: "f", stateMutability: "nonpayable", inputs: [], outputs: [] }];

  /** A repository tree whose IFoo artifact's build info read `commonAsCompiled` as contracts/Common.sol. */
  function repositoryTree(commonAsCompiled: string) {
    const files: Record<string, string> = {
      "contracts/Common.sol": common,
      "contracts/IFoo.sol": iface,
      "contracts/test/Harness.sol": "contract Harness {}\n",
      "artifacts/contracts/IFoo.sol/IFoo.json": JSON.stringify({
        _format: "hh-sol-artifact-1",
        contractName: "IFoo",
        sourceName: "contracts/IFoo.sol",
        abi,
        bytecode: "0x",
      }),
      "artifacts/contracts/IFoo.sol/IFoo.dbg.json": JSON.stringify({ buildInfo: "../../build-info/b.json" }),
      "artifacts/build-info/b.json": JSON.stringify({
        input: {
          sources: { "contracts/IFoo.sol": { content: iface }, "contracts/Common.sol": { content: commonAsCompiled } },
        },
      }),
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(join(repository, file, ".."), { recursive: true });
      writeFileSync(join(repository, file), content);
    }
  }

  const build = () =>
    exec(process.execPath, [join(ROOT, "packages", "contracts", "scripts", "build.mjs")], repository, {
      CONTRACTS_PACKAGE_ROOT: repository,
      CONTRACTS_PACKAGE_OUT: out,
    });

  beforeEach(function () {
    const dir = mkdtempSync(join(tmpdir(), "contracts-build-"));
    repository = join(dir, "repository");
    out = join(dir, "package");
    mkdirSync(out, { recursive: true });
  });

  afterEach(function () {
    rmSync(join(repository, ".."), { recursive: true, force: true });
  });

  it("refuses an artifact whose build info read another text of a source it imports, and ships nothing", async function () {
    repositoryTree(common.replace("uint256 x", "uint128 x"));
    let failure: unknown;
    await build().catch((error: unknown) => (failure = error));
    // It tries `hardhat compile` once (which fails here: no Hardhat project), then stops.
    expect(String(failure)).to.include(
      "artifacts stale (artifacts/contracts/IFoo.sol/IFoo.json was compiled from another contracts/Common.sol); running hardhat compile",
    );
    expect(String(failure)).to.include("HH1: You are not inside a Hardhat project");
    expect(filesUnder(out)).to.deep.equal([]);
  });

  it("ships the sources (not contracts/test/), the artifact and its ABI when the build info read the shipped text", async function () {
    repositoryTree(common);
    await build();
    expect(filesUnder(out)).to.deep.equal([
      "abi/IFoo.json",
      "artifacts/IFoo.json",
      "contracts/Common.sol",
      "contracts/IFoo.sol",
    ]);
    expect(readFileSync(join(out, "contracts", "IFoo.sol"), "utf8")).to.equal(iface);
    expect(readJson(join(out, "abi", "IFoo.json"))).to.deep.equal(abi);
  });
});
