import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { createPublicClient, custom, getAddress, keccak256, parseEther, toHex, type Address, type Hex } from "viem";

import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { hardhatAccount, hardhatPrivateKey, UNBONDING_PERIOD } from "../helpers/actionsFixture";
import { deployFixture } from "../helpers/registryFixture";
import { startHardhatRpcServer, type HardhatRpcServer } from "../helpers/hardhatRpcServer";

/** A fresh key with no ether (never one of Hardhat's funded accounts). */
const UNFUNDED_KEY: Hex = keccak256(toHex("attest ops test: a key nobody funds"));

/** Every key a test hands the CLI: none may ever appear in its output. */
const secrets = [hardhatPrivateKey(1), hardhatPrivateKey(2), UNFUNDED_KEY].map((key) => key.slice(2).toLowerCase());

type Run = { code: number; stdout: string[]; stderr: string[] };
const transcripts: Run[] = [];

/** Runs `attest <argv>` in process with the given environment and collects its output. */
async function attest(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const run: Run = { code: -1, stdout: [], stderr: [] };
  const io: CliIo = {
    stdout: (line) => run.stdout.push(line),
    stderr: (line) => run.stderr.push(line),
    readStdin: async () => "",
    env,
  };
  run.code = await main(argv, io);
  transcripts.push(run);
  return run;
}

/** The single JSON line a `--json` run prints. */
function json(run: Run): { command: string; hash?: Hex; state: Record<string, unknown>; [key: string]: unknown } {
  expect(run.stdout, run.stderr.join("\n")).to.have.length(1);
  return JSON.parse(run.stdout[0]);
}

describe("attest register|bond|unbond|withdraw|revoke|status (over HTTP to the in-process network)", function () {
  let rpc: HardhatRpcServer;
  let keyDir: string;
  const publicClient = createPublicClient({ transport: custom(hre.network.provider) });
  const attester = hardhatAccount(1).address;
  const payer = hardhatAccount(2).address;

  before(async function () {
    rpc = await startHardhatRpcServer();
    keyDir = mkdtempSync(path.join(tmpdir(), "attest-ops-"));
  });

  after(async function () {
    await rpc.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  afterEach(function () {
    for (const run of transcripts.splice(0)) {
      const text = [...run.stdout, ...run.stderr].join("\n").toLowerCase();
      for (const secret of secrets) expect(text).not.to.contain(secret);
    }
  });

  let registry: Address;
  beforeEach(async function () {
    ({ registry } = await loadFixture(deployFixture));
  });

  /** The environment of an attester operator: RPC, registry and key of Hardhat account `index`. */
  async function env(index = 1): Promise<NodeJS.ProcessEnv> {
    return { RPC_URL: rpc.url, REGISTRY_ADDRESS: registry, ATTESTER_PRIVATE_KEY: hardhatPrivateKey(index) };
  }

  describe("lifecycle", function () {
    it("register prints the transaction hash and the active state as one JSON line", async function () {
      const run = await attest(["register", "--bond", "1.5", "--beneficiary", payer, "--json"], await env());
      expect(run.code, run.stderr.join("\n")).to.equal(0);
      const out = json(run);
      expect(out.command).to.equal("register");
      expect(out.hash).to.match(/^0x[0-9a-f]{64}$/);
      const receipt = await publicClient.getTransactionReceipt({ hash: out.hash! });
      expect(receipt.status).to.equal("success");
      expect(getAddress(receipt.from)).to.equal(attester);
      expect(out.state).to.include({
        attester,
        registered: true,
        unbonding: false,
        active: true,
        bond: parseEther("1.5").toString(),
        bondEth: "1.5",
        beneficiary: payer,
        minBondEth: "1",
        unbondingPeriod: Number(UNBONDING_PERIOD),
        withdrawableAt: null,
      });
    });

    it("register prints readable lines without --json", async function () {
      const run = await attest(["register", "--bond", "1"], await env());
      expect(run.code).to.equal(0);
      expect(run.stdout[0]).to.match(/^transaction 0x[0-9a-f]{64} \(block \d+\)$/);
      expect(run.stdout).to.include(`attester    ${attester}`);
      expect(run.stdout).to.include("status      active: signatures by this key verify on chain");
      expect(run.stdout).to.include("bond        1 ETH (minimum 1 ETH)");
    });

    it("takes --rpc, --registry and --key-file instead of the environment", async function () {
      const keyFile = path.join(keyDir, "attester.key");
      writeFileSync(keyFile, `${hardhatPrivateKey(1)}\n`, { mode: 0o600 });
      const run = await attest([
        "register",
        "--bond",
        "1",
        "--rpc",
        rpc.url,
        "--registry",
        registry,
        "--key-file",
        keyFile,
        "--json",
      ]);
      expect(run.code, run.stderr.join("\n")).to.equal(0);
      expect(json(run).state.attester).to.equal(attester);
    });

    it("reads the key from ATTESTER_KEY_FILE", async function () {
      const { RPC_URL, REGISTRY_ADDRESS } = await env();
      const keyFile = path.join(keyDir, "env.key");
      writeFileSync(keyFile, hardhatPrivateKey(2).slice(2), { mode: 0o600 });
      const run = await attest(["register", "--bond", "1", "--json"], {
        RPC_URL,
        REGISTRY_ADDRESS,
        ATTESTER_KEY_FILE: keyFile,
      });
      expect(run.code, run.stderr.join("\n")).to.equal(0);
      expect(json(run).state.attester).to.equal(payer);
    });

    it("bond tops up the key's own bond, or another attester's with --attester", async function () {
      const attesterEnv = await env(1);
      expect((await attest(["register", "--bond", "1"], attesterEnv)).code).to.equal(0);
      const own = await attest(["bond", "--amount", "0.25", "--json"], attesterEnv);
      expect(own.code, own.stderr.join("\n")).to.equal(0);
      expect(json(own).state.bondEth).to.equal("1.25");
      const other = await attest(
        ["bond", "--amount", "2", "--attester", attester.toLowerCase(), "--json"],
        await env(2),
      );
      expect(other.code, other.stderr.join("\n")).to.equal(0);
      const out = json(other);
      expect(getAddress((await publicClient.getTransactionReceipt({ hash: out.hash! })).from)).to.equal(payer);
      expect(out.state).to.include({ attester, bondEth: "3.25" });
    });

    it("unbond, then withdraw fails with the time it becomes possible, then succeeds after the delay", async function () {
      const operator = await env(1);
      expect((await attest(["register", "--bond", "2", "--beneficiary", payer], operator)).code).to.equal(0);
      const unbond = await attest(["unbond", "--json"], operator);
      expect(unbond.code, unbond.stderr.join("\n")).to.equal(0);
      const state = json(unbond).state;
      expect(state).to.include({ registered: true, unbonding: true, active: false, withdrawable: false });
      const withdrawableAt = state.withdrawableAt as number;
      expect(withdrawableAt).to.equal((state.timestamp as number) + Number(UNBONDING_PERIOD));

      const early = await attest(["withdraw"], operator);
      expect(early.code).to.equal(1);
      expect(early.stdout).to.deep.equal([]);
      expect(early.stderr).to.have.length(1);
      const iso = new Date(withdrawableAt * 1000).toISOString().replace(".000Z", "Z");
      expect(early.stderr[0]).to.match(
        new RegExp(
          `^attest withdraw: the bond of ${attester} is not withdrawable until ${iso} \\(7d from chain time [0-9TZ:-]+\\): run "attest withdraw" again then$`,
        ),
      );

      const status = await attest(["status"], operator);
      expect(status.stdout.find((line) => line.startsWith("status"))).to.equal(
        `status      unbonding: backs nothing; the bond is withdrawable at ${iso} (in 7d)`,
      );

      await time.increaseTo(withdrawableAt);
      const ready = await attest(["status"], operator);
      expect(ready.stdout).to.include('status      unbonding: the bond is withdrawable now ("attest withdraw")');
      const before = await publicClient.getBalance({ address: payer });
      const done = await attest(["withdraw", "--json"], operator);
      expect(done.code, done.stderr.join("\n")).to.equal(0);
      const out = json(done);
      expect(out).to.include({ withdrawn: "2 ETH", paidTo: payer });
      expect(out.state).to.include({ registered: false, unbonding: false, bondEth: "0", withdrawableAt: null });
      expect(await publicClient.getBalance({ address: payer })).to.equal(before + parseEther("2"));
    });

    it("unbond --deregister deregisters the key", async function () {
      const operator = await env(1);
      expect((await attest(["register", "--bond", "1"], operator)).code).to.equal(0);
      const run = await attest(["unbond", "--deregister", "--json"], operator);
      expect(run.code, run.stderr.join("\n")).to.equal(0);
      expect(json(run).state).to.include({ registered: false, unbonding: true, active: false });
    });

    it("revoke revokes one or several digests and says which; repeating one fails naming it", async function () {
      const operator = await env(1);
      const a = keccak256(toHex("a"));
      const b = keccak256(toHex("b"));
      const one = await attest(["revoke", a, "--json"], operator);
      expect(one.code, one.stderr.join("\n")).to.equal(0);
      expect(json(one)).to.deep.include({ revoked: [a] });
      expect(json(one).state.hasRevoked).to.equal(true);
      const again = await attest(["revoke", b, a], operator);
      expect(again.code).to.equal(1);
      expect(again.stderr).to.deep.equal([
        `attest revoke: digest ${a} is already revoked by ${attester}: leave it out and retry the others`,
      ]);
      const two = await attest(["revoke", b, keccak256(toHex("c"))], operator);
      expect(two.code, two.stderr.join("\n")).to.equal(0);
      expect(two.stdout).to.include(`revoked     ${b} ${keccak256(toHex("c"))}`);
    });

    it("status needs no key: --attester and the registry are enough", async function () {
      const operator = await env(1);
      expect((await attest(["register", "--bond", "1"], operator)).code).to.equal(0);
      const run = await attest(["status", "--attester", attester, "--json"], {
        RPC_URL: operator.RPC_URL,
        REGISTRY_ADDRESS: operator.REGISTRY_ADDRESS,
      });
      expect(run.code, run.stderr.join("\n")).to.equal(0);
      const out = json(run);
      expect(out.command).to.equal("status");
      expect(out).not.to.have.property("hash");
      expect(out.state).to.include({ attester, active: true, registered: true, bondEth: "1" });
    });

    it("status of a key slashed below the minimum says how to restore it", async function () {
      const operator = await env(1);
      expect((await attest(["register", "--bond", "1"], operator)).code).to.equal(0);
      const owner = (await hre.ethers.getSigners())[0];
      const contract = await hre.ethers.getContractAt("AttestationRegistry", registry, owner);
      await contract.slash(attester, parseEther("0.4"), owner.address);
      const run = await attest(["status", "--json"], operator);
      expect(json(run).state).to.include({ registered: true, active: false, bondEth: "0.6" });
      const text = await attest(["status"], operator);
      expect(text.stdout).to.include(
        'status      registered but not active: bond 0.6 ETH is below the minimum 1 ETH ("attest bond --amount <eth>")',
      );
      const topUp = await attest(["bond", "--amount", "0.4", "--json"], operator);
      expect(json(topUp).state).to.include({ active: true, bondEth: "1" });
    });

    it("status of an unknown key says it is not registered", async function () {
      const run = await attest(["status", "--attester", hardhatAccount(5).address], await env());
      expect(run.code).to.equal(0);
      expect(run.stdout).to.include('status      not registered ("attest register --bond <eth>")');
    });
  });

  describe("errors (one line on stderr, exit 1)", function () {
    /** Runs a command that must fail with exit `code` and exactly one stderr line (plus usage for 64). */
    async function fails(argv: string[], environment: NodeJS.ProcessEnv, code = 1): Promise<string> {
      const run = await attest(argv, environment);
      expect(run.code, run.stdout.join("\n")).to.equal(code);
      expect(run.stdout).to.deep.equal([]);
      expect(run.stderr).to.have.length(code === 64 ? 2 : 1);
      if (code === 64) expect(run.stderr[1]).to.match(/^usage: attest /);
      return run.stderr[0];
    }

    it("bond below the minimum", async function () {
      expect(await fails(["register", "--bond", "0.5"], await env())).to.equal(
        "attest register: bond 0.5 ETH is below the registry minimum 1 ETH: send at least 1 ETH",
      );
    });

    it("insufficient funds", async function () {
      const { RPC_URL, REGISTRY_ADDRESS } = await env();
      const line = await fails(["register", "--bond", "1"], {
        RPC_URL,
        REGISTRY_ADDRESS,
        ATTESTER_PRIVATE_KEY: UNFUNDED_KEY,
      });
      expect(line).to.match(
        /^attest register: account 0x[0-9a-fA-F]{40} has 0 ETH, which cannot pay 1 ETH plus gas: fund it or send less$/,
      );
    });

    it("insufficient funds for gas alone", async function () {
      const { RPC_URL, REGISTRY_ADDRESS } = await env();
      const line = await fails(["revoke", keccak256(toHex("x"))], {
        RPC_URL,
        REGISTRY_ADDRESS,
        ATTESTER_PRIVATE_KEY: UNFUNDED_KEY,
      });
      expect(line).to.match(
        /^attest revoke: account 0x[0-9a-fA-F]{40} cannot pay 0 ETH plus gas: fund it or send less$/,
      );
    });

    it("not registered", async function () {
      expect(await fails(["unbond"], await env())).to.equal(
        `attest unbond: attester ${attester} is not registered: register it first with "attest register --bond <eth>"`,
      );
    });

    it("withdraw without unbonding first", async function () {
      const operator = await env();
      expect((await attest(["register", "--bond", "1"], operator)).code).to.equal(0);
      expect(await fails(["withdraw"], operator)).to.contain(
        'has not requested unbonding, so nothing is withdrawable: run "attest unbond" first',
      );
    });

    it("already registered", async function () {
      const operator = await env();
      expect((await attest(["register", "--bond", "1"], operator)).code).to.equal(0);
      expect(await fails(["register", "--bond", "1"], operator)).to.contain(
        `attester ${attester} is already registered`,
      );
    });

    it("no registry contract at the address", async function () {
      const operator = { ...(await env()), REGISTRY_ADDRESS: payer };
      expect(await fails(["register", "--bond", "1"], operator)).to.equal(
        `attest register: no contract at ${payer} on chain 31337: check --registry / REGISTRY_ADDRESS and that --rpc / RPC_URL points at the chain it was deployed on`,
      );
      expect(await fails(["status", "--attester", attester], operator)).to.contain(`no contract at ${payer}`);
    });

    it("unreachable RPC (connection refused)", async function () {
      const closed = await startHardhatRpcServer();
      await closed.close();
      const line = await fails(["status", "--attester", attester], { ...(await env()), RPC_URL: closed.url });
      expect(line).to.match(
        new RegExp(
          `^attest status: cannot reach the RPC endpoint ${closed.url} \\(.+\\): check that the node is running and --rpc / RPC_URL$`,
        ),
      );
    });

    it("an HTTP server that is not a JSON-RPC node", async function () {
      const { createServer } = await import("node:http");
      const server = createServer((_req, res) => res.writeHead(404).end("not here"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      try {
        const line = await fails(["status", "--attester", attester], {
          ...(await env()),
          RPC_URL: `http://127.0.0.1:${port}`,
        });
        expect(line).to.equal(
          `attest status: the RPC endpoint http://127.0.0.1:${port} answered HTTP 404 instead of JSON-RPC: check that --rpc / RPC_URL is the node's JSON-RPC URL (and its API key, if it needs one)`,
        );
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it("unreachable RPC whose URL carries an API key: the key is not printed", async function () {
      const closed = await startHardhatRpcServer();
      await closed.close();
      const line = await fails(["status", "--attester", attester], {
        ...(await env()),
        RPC_URL: `${closed.url}/v3/SECRET-API-KEY?token=SECRET-TOKEN`,
      });
      expect(line).to.contain(`cannot reach the RPC endpoint ${closed.url}/…`);
      expect(line).not.to.contain("SECRET");
    });

    it("an unreadable key file", async function () {
      const missing = path.join(keyDir, "missing.key");
      const line = await fails(["unbond", "--key-file", missing], await env());
      expect(line).to.equal(`attest unbond: Cannot read key file ${JSON.stringify(missing)} (ENOENT).`);
    });

    it("a malformed key, without echoing it", async function () {
      const bad = `${hardhatPrivateKey(1)}ff`;
      const line = await fails(["unbond"], { ...(await env()), ATTESTER_PRIVATE_KEY: bad });
      expect(line).to.equal(
        "attest unbond: Private key from ATTESTER_PRIVATE_KEY is invalid: 66 hex digits instead of 64.",
      );
    });
  });

  describe("usage errors (exit 64)", function () {
    async function usage(argv: string[], environment: NodeJS.ProcessEnv): Promise<string> {
      const run = await attest(argv, environment);
      expect(run.code).to.equal(64);
      expect(run.stdout).to.deep.equal([]);
      expect(run.stderr).to.have.length(2);
      expect(run.stderr[1]).to.match(new RegExp(`^usage: attest ${argv[0]} `));
      return run.stderr[0];
    }

    it("a missing key", async function () {
      const { RPC_URL, REGISTRY_ADDRESS } = await env();
      expect(await usage(["register", "--bond", "1"], { RPC_URL, REGISTRY_ADDRESS })).to.equal(
        "attest register: no attester key: pass --key-file <path>, or set ATTESTER_KEY_FILE or ATTESTER_PRIVATE_KEY",
      );
    });

    it("a network name instead of an RPC URL", async function () {
      expect(await usage(["status", "--attester", attester, "--rpc", "mainnet"], await env())).to.equal(
        'attest status: --rpc "mainnet" is not an RPC URL: networks are not known by name, pass the node\'s http:// or https:// URL, e.g. http://127.0.0.1:8545',
      );
    });

    it("an RPC URL of another scheme, without echoing it", async function () {
      const line = await usage(["status", "--attester", attester], {
        ...(await env()),
        RPC_URL: "ws://127.0.0.1:8545/SECRET",
      });
      expect(line).to.match(/^attest status: RPC_URL a ws URL is not an RPC URL: /);
      expect(line).not.to.contain("SECRET");
    });

    it("no RPC and no registry", async function () {
      expect(await usage(["status", "--attester", attester], {})).to.contain(
        "no RPC endpoint: pass --rpc <url> or set RPC_URL",
      );
      expect(await usage(["status", "--attester", attester], { RPC_URL: rpc.url })).to.contain(
        "no registry: pass --registry <address> or set REGISTRY_ADDRESS",
      );
    });

    it("bad amounts, addresses, digests and options", async function () {
      const operator = await env();
      expect(await usage(["register"], operator)).to.equal("attest register: --bond <eth> is required");
      expect(await usage(["register", "--bond", "1e18"], operator)).to.contain('--bond "1e18" is not an amount of ETH');
      expect(await usage(["register", "--bond=-1"], operator)).to.contain("is not an amount of ETH");
      expect(await usage(["register", "--bond", "-1"], operator)).to.contain("--bond");
      expect(await usage(["bond", "--amount", "0.1234567890123456789"], operator)).to.contain(
        "is not an amount of ETH",
      );
      expect(await usage(["register", "--bond", "1", "--beneficiary", "0x12"], operator)).to.contain(
        '--beneficiary "0x12" is not an address',
      );
      expect(await usage(["revoke"], operator)).to.contain("no digest");
      expect(await usage(["revoke", "0x1234"], operator)).to.contain('"0x1234" is not a digest');
      expect(await usage(["unbond", "--force"], operator)).to.contain("--force");
      expect(await usage(["status"], { RPC_URL: rpc.url, REGISTRY_ADDRESS: operator.REGISTRY_ADDRESS })).to.contain(
        "no attester",
      );
    });
  });
});
