import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { isModuleParameterRuntimeValue } from "@nomicfoundation/ignition-core";
import { expect } from "chai";
import { id } from "ethers";
import { AttestationRegistryModule } from "../../ignition/modules/AttestationRegistry";

const run = promisify(execFile);
const ROOT = join(__dirname, "..", "..");
const HARDHAT = join(ROOT, "node_modules", ".bin", "hardhat");
/** Node 24 would strip the types of hardhat.config.ts itself; Hardhat's ts-node must load it (as `npm run` does). */
const NODE_ENV_FOR_TS = { NODE_OPTIONS: "--no-experimental-strip-types" };

/** The public networks of issue 18: Hardhat name, chain id, and the prefix of its configuration variables. */
const PUBLIC_NETWORKS = [
  { name: "sepolia", chainId: 11155111, prefix: "SEPOLIA" },
  { name: "mainnet", chainId: 1, prefix: "MAINNET" },
  { name: "base", chainId: 8453, prefix: "BASE" },
  { name: "arbitrumOne", chainId: 42161, prefix: "ARBITRUM_ONE" },
] as const;

/** A distinct, obviously fake 32-byte key per network (never a real one). */
const fakeKey = (i: number) => `0x${(i + 1).toString(16).padStart(2, "0").repeat(32)}`;
const fakeUrl = (name: string) => `https://rpc.invalid/${name}`;

/** Every `HARDHAT_VAR_*` the public networks and verification read, set to fake values. */
function allVars(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HARDHAT_VAR_ETHERSCAN_API_KEY: "FAKEETHERSCANKEY" };
  PUBLIC_NETWORKS.forEach((n, i) => {
    env[`HARDHAT_VAR_${n.prefix}_RPC_URL`] = fakeUrl(n.name);
    env[`HARDHAT_VAR_${n.prefix}_DEPLOYER_KEY`] = fakeKey(i);
  });
  return env;
}

/**
 * Runs `node -e <script>` in the project with a fresh Hardhat context: only `extra` configuration variables are set
 * (the parent's `HARDHAT_VAR_*` are dropped and the stored vars file lives in an empty XDG_CONFIG_HOME).
 */
async function inFreshHardhat(script: string, extra: NodeJS.ProcessEnv, configHome: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...NODE_ENV_FOR_TS, XDG_CONFIG_HOME: configHome, ...extra };
  for (const key of Object.keys(env)) {
    if (key.startsWith("HARDHAT_VAR_") && !(key in extra)) delete env[key];
  }
  if (!("HARDHAT_NETWORK" in extra)) delete env.HARDHAT_NETWORK;
  return run(process.execPath, ["-e", script], { cwd: ROOT, env, timeout: 120_000 });
}

const PRINT_CONFIG = `
require("hardhat/register");
const hre = require("hardhat");
const pick = (n) => hre.config.networks[n] && { chainId: hre.config.networks[n].chainId, url: hre.config.networks[n].url, accounts: hre.config.networks[n].accounts };
console.log(JSON.stringify({
  networks: Object.fromEntries(${JSON.stringify(PUBLIC_NETWORKS.map((n) => n.name))}.map((n) => [n, pick(n)])),
  etherscan: hre.config.etherscan.apiKey,
  solc: hre.config.solidity.compilers.map((c) => c.version),
}));
`;

describe("public networks (issue 18): sepolia, mainnet, base, arbitrumOne from Hardhat configuration variables", function () {
  this.timeout(300_000);
  let configHome: string;
  before(() => (configHome = mkdtempSync(join(tmpdir(), "hh-vars-"))));
  after(() => rmSync(configHome, { recursive: true, force: true }));

  it("each network takes its chain id, RPC URL and deployer key from its variables, and verification its Etherscan key", async () => {
    const { stdout } = await inFreshHardhat(PRINT_CONFIG, allVars(), configHome);
    const printed = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    PUBLIC_NETWORKS.forEach((n, i) => {
      expect(printed.networks[n.name], n.name).to.deep.equal({
        chainId: n.chainId,
        url: fakeUrl(n.name),
        accounts: [fakeKey(i)],
      });
    });
    // One Etherscan v2 key (a string, not a per-chain object) verifies on every chain.
    expect(printed.etherscan).to.equal("FAKEETHERSCANKEY");
    expect(printed.solc).to.deep.equal(["0.8.28"]);
  });

  it("with no variables set the config loads, holds no key, and `hardhat compile` still works", async () => {
    const { stdout } = await inFreshHardhat(PRINT_CONFIG, {}, configHome);
    const printed = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    for (const n of PUBLIC_NETWORKS) {
      expect(printed.networks[n.name], n.name).to.deep.equal({ chainId: n.chainId, url: "", accounts: [] });
    }
    const env: NodeJS.ProcessEnv = { ...process.env, ...NODE_ENV_FOR_TS, XDG_CONFIG_HOME: configHome };
    for (const key of Object.keys(env)) if (key.startsWith("HARDHAT_VAR_")) delete env[key];
    delete env.HARDHAT_NETWORK;
    const compiled = await run(HARDHAT, ["compile", "--quiet"], { cwd: ROOT, env, timeout: 240_000 });
    expect(compiled.stderr).to.not.match(/error/i);
  });

  it("using a network whose variables are unset fails with one clear error naming the missing variables", async () => {
    const { prefix, name } = PUBLIC_NETWORKS[0];
    const failure = await inFreshHardhat(PRINT_CONFIG, { HARDHAT_NETWORK: name }, configHome).then(
      () => undefined,
      (e: { stderr: string; code: number }) => e,
    );
    expect(failure, "loading Hardhat for sepolia with no variables must fail").to.not.equal(undefined);
    expect(failure?.stderr).to.contain(
      `network ${name} cannot be used: ${prefix}_RPC_URL is not set; ${prefix}_DEPLOYER_KEY is not set.`,
    );
    expect(failure?.stderr).to.contain("npx hardhat vars set <NAME>");
  });

  it("a malformed deployer key or RPC URL breaks no other task and names itself when its network is used", async () => {
    const malformed = { HARDHAT_VAR_MAINNET_RPC_URL: "ws://node.invalid", HARDHAT_VAR_MAINNET_DEPLOYER_KEY: "0x1234" };
    const { stdout } = await inFreshHardhat(PRINT_CONFIG, malformed, configHome);
    const printed = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    expect(printed.networks.mainnet.accounts, "a malformed key is never handed to Hardhat").to.deep.equal([]);
    const failure = await inFreshHardhat(PRINT_CONFIG, { ...malformed, HARDHAT_NETWORK: "mainnet" }, configHome).then(
      () => undefined,
      (e: { stderr: string }) => e,
    );
    expect(failure?.stderr).to.contain(
      "network mainnet cannot be used: MAINNET_RPC_URL is not an http(s) URL; " +
        "MAINNET_DEPLOYER_KEY is not a 32-byte hex private key.",
    );
    expect(failure?.stderr, "the key's value is never printed").to.not.contain("0x1234");
  });

  it("the network with only its own variables set loads, the others stay unusable", async () => {
    const { stdout } = await inFreshHardhat(
      PRINT_CONFIG,
      {
        HARDHAT_NETWORK: "base",
        HARDHAT_VAR_BASE_RPC_URL: fakeUrl("base"),
        HARDHAT_VAR_BASE_DEPLOYER_KEY: fakeKey(2),
      },
      configHome,
    );
    const printed = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    expect(printed.networks.base).to.deep.equal({ chainId: 8453, url: fakeUrl("base"), accounts: [fakeKey(2)] });
    expect(printed.networks.mainnet?.accounts ?? []).to.deep.equal([]);
  });
});

describe("Ignition parameter files (issue 18)", () => {
  const dir = join(ROOT, "ignition", "parameters");
  /** Every parameter the module declares, read from its futures (so a new parameter without a file entry fails). */
  const declared = [
    ...new Set(
      [...AttestationRegistryModule.futures].flatMap((f) =>
        "constructorArgs" in f ? f.constructorArgs.filter(isModuleParameterRuntimeValue).map((p) => p.name) : [],
      ),
    ),
  ].sort();

  it("the module declares owner, minBond and unbondingPeriod", () => {
    expect(declared).to.deep.equal(["minBond", "owner", "unbondingPeriod"]);
  });

  for (const network of ["localhost", ...PUBLIC_NETWORKS.map((n) => n.name)]) {
    it(`${network}.json parses and names every declared parameter, each a valid value`, () => {
      const files = readdirSync(dir);
      expect(files, `ignition/parameters/${network}.json`).to.include(`${network}.json`);
      const parsed = JSON.parse(readFileSync(join(dir, `${network}.json`), "utf8"));
      expect(Object.keys(parsed)).to.deep.equal([AttestationRegistryModule.id]);
      const params = parsed[AttestationRegistryModule.id];
      expect(Object.keys(params).sort()).to.deep.equal(declared);
      expect(params.owner).to.match(/^0x[0-9a-fA-F]{40}$/);
      // Ignition reads "<digits>n" as a bigint; both inside the constructor's bounds.
      expect(params.minBond).to.match(/^[0-9]+n$/);
      const minBond = BigInt(params.minBond.slice(0, -1));
      expect(minBond > 0n && minBond <= 2n ** 96n - 1n, "1 wei ≤ minBond ≤ 2^96 − 1").to.equal(true);
      expect(params.unbondingPeriod).to.match(/^[0-9]+n$/);
      expect(BigInt(params.unbondingPeriod.slice(0, -1)) <= 3650n * 86400n, "unbondingPeriod ≤ 3,650 days").to.equal(
        true,
      );
    });
  }

  it("no committed parameter file holds anything that looks like a private key", () => {
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file), "utf8"), file).to.not.match(/0x[0-9a-fA-F]{64}/);
    }
  });
});

/** A TCP port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The 4-byte selector of a function signature. */
const selector = (signature: string) => id(signature).slice(0, 10);

/** One JSON-RPC `eth_call` of `data` to `to` on `url`; the result word. */
async function ethCall(url: string, to: string, data: string): Promise<string> {
  const body = { jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to, data }, "latest"] };
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { result: string }).result;
}

describe("ignition deploy to the sepolia network, end to end against a local `hardhat node` with chain id 11155111", function () {
  this.timeout(300_000);
  /** Hardhat's first well-known development account: funded on every local node, worthless anywhere else. */
  const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
  const OWNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"; // the second development account
  const deploymentId = `test-networks-${process.pid}`;
  const deploymentDir = join(ROOT, "ignition", "deployments", deploymentId);
  let node: ChildProcess | undefined;
  let scratch: string;
  let url: string;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), "hh-deploy-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = { ...process.env, ...NODE_ENV_FOR_TS, XDG_CONFIG_HOME: scratch, HARDHAT_CHAIN_ID: "11155111" };
    node = spawn(HARDHAT, ["node", "--port", String(port), "--hostname", "127.0.0.1"], { cwd: ROOT, env });
    const started = node;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      started.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Started HTTP")) resolve();
      });
      started.once("exit", (code) => reject(new Error(`hardhat node exited ${code}: ${out}`)));
    });
  });

  after(() => {
    node?.kill();
    rmSync(deploymentDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  /** `npx hardhat ignition deploy` of the module to `sepolia` (the local node) with the parameter file `parameters`. */
  function deploy(parameters: string) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...NODE_ENV_FOR_TS,
      XDG_CONFIG_HOME: scratch,
      HARDHAT_VAR_SEPOLIA_RPC_URL: url,
      HARDHAT_VAR_SEPOLIA_DEPLOYER_KEY: DEV_KEY,
      HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
    };
    const args = ["ignition", "deploy", "ignition/modules/AttestationRegistry.ts", "--network", "sepolia"];
    return run(HARDHAT, [...args, "--parameters", parameters, "--deployment-id", deploymentId], {
      cwd: ROOT,
      env,
      timeout: 240_000,
    });
  }

  it("the committed sepolia.json, owner still the zero placeholder, fails in simulation and sends nothing", async () => {
    const failure = await deploy("ignition/parameters/sepolia.json").then(
      () => undefined,
      (e: { stdout: string; stderr: string }) => e,
    );
    expect(failure, "a deploy with the placeholder owner must fail").to.not.equal(undefined);
    expect(`${failure?.stdout}${failure?.stderr}`).to.contain(
      'OwnableInvalidOwner("0x0000000000000000000000000000000000000000")',
    );
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    expect(((await res.json()) as { result: string }).result, "no transaction was mined").to.equal("0x0");
  });

  it("with the owner filled in, it deploys the registry with the file's owner, minBond and unbondingPeriod", async () => {
    const committed = JSON.parse(readFileSync(join(ROOT, "ignition", "parameters", "sepolia.json"), "utf8"));
    const filled = { AttestationRegistryModule: { ...committed.AttestationRegistryModule, owner: OWNER } };
    const file = join(scratch, "sepolia.json");
    writeFileSync(file, JSON.stringify(filled));
    rmSync(deploymentDir, { recursive: true, force: true }); // the failed attempt's journal
    await deploy(file);
    const addresses = JSON.parse(readFileSync(join(deploymentDir, "deployed_addresses.json"), "utf8"));
    const registry: string = addresses["AttestationRegistryModule#AttestationRegistry"];
    expect(registry).to.match(/^0x[0-9a-fA-F]{40}$/);
    // owner() 0x8da5cb5b, minBond() and unbondingPeriod() by their selectors.
    expect(BigInt(await ethCall(url, registry, "0x8da5cb5b"))).to.equal(BigInt(OWNER));
    const minBond = committed.AttestationRegistryModule.minBond.slice(0, -1);
    expect(BigInt(await ethCall(url, registry, selector("minBond()")))).to.equal(BigInt(minBond));
    const period = committed.AttestationRegistryModule.unbondingPeriod.slice(0, -1);
    expect(BigInt(await ethCall(url, registry, selector("unbondingPeriod()")))).to.equal(BigInt(period));
  });
});
