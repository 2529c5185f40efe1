import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { DEV_KEY_FILE as CLI_DEV_KEY_FILE } from "../../src/cli/commands/mcp";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { DEV_KEY_FILE } from "../../src/main/attesterKey";
import type { Store } from "../../src/storage/openStore";
import { TEST_ATTESTER, TEST_REGISTRY } from "../helpers/service/app";
import { GET_CASES, TOOL_NAMES, WETH } from "../helpers/mcp/cases";
import { buildMcpApp, expectSuccess, expectToolError, openMcpStore } from "../helpers/mcp/fixture";

const ROOT = resolve(__dirname, "..", "..");
const BIN = join(ROOT, "bin", "attest.js");

/** Tools whose answer does not depend on the second it is computed (no `asOf`, no window ending today). */
const TIMELESS = new Set(["get_attestation", "get_attester", "get_launch", "get_activity", "get_roadmap"]);

/** Runs `node bin/attest.js mcp` with `input` on stdin (then closes it); resolves when the process exits. */
function runMcp(
  env: Record<string, string>,
  input: string,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "mcp", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Runs `attest <argv>` in this process through the CLI's `main`, recording its lines (for the paths that fail early). */
async function runInProcess(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => "",
    env,
  };
  return { code: await main(argv, io), out, err };
}

/** An attester other than the test key's (Hardhat's second account). */
const OTHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const line = (message: object) => `${JSON.stringify(message)}\n`;
const INITIALIZE = line({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
});

/** The SHA-256 of a file, or "" when it does not exist. */
const digest = (file: string) =>
  existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "";

describe("MCP over stdio: `npx attest mcp` over the service's store, read-only", function () {
  let store: Store;
  let dir: string;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;

  before(async function () {
    ({ store, dir, cleanup } = await openMcpStore());
    // The stdio server runs on the wall clock: compare it with an app on the wall clock too.
    app = await buildMcpApp(store, { now: () => Math.floor(Date.now() / 1000) });
  });

  after(async function () {
    await app?.close();
    await cleanup?.();
  });

  it("serves every tool to the SDK's Client over a spawned `npx attest mcp`, as the API answers them", async function () {
    const files = ["service.sqlite", "service.sqlite-wal"].map((name) => join(dir, name));
    const before = files.map(digest);
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["attest", "mcp"],
      cwd: ROOT,
      // The registry as the service is configured with it (without it: the one the newest attestation names).
      env: { DATA_DIR: dir, REGISTRY_CHAIN_ID: String(TEST_REGISTRY.chainId), REGISTRY_ADDRESS: TEST_REGISTRY.address },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk) => (stderr += chunk));
    const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal([...TOOL_NAMES]);
      for (const { tool, args, url } of GET_CASES) {
        const body = expectSuccess((await client.callTool({ name: tool, arguments: args })) as CallToolResult);
        const api = (await app.inject({ url })).json();
        if (TIMELESS.has(tool)) expect(body, `${tool} ${JSON.stringify(args)}`).to.deep.equal(api);
        else expect(Object.keys(body), tool).to.deep.equal(Object.keys(api));
      }
      const attester = expectSuccess((await client.callTool({ name: "get_attester" })) as CallToolResult);
      expect(attester).to.deep.equal({ attester: TEST_ATTESTER, scheme: "eip191-v1", registry: TEST_REGISTRY });
      // Verify a pool's attestation end to end: the library against the pinned attester, then the tool.
      const attestation = expectSuccess(
        (await client.callTool({ name: "get_attestation", arguments: { pool: WETH } })) as CallToolResult,
      );
      expect(verifyAttestation({ attestation: attestation as never, address: TEST_ATTESTER }).valid).to.equal(true);
      const tampered = { ...attestation, horizon: 365 };
      const verdict = expectSuccess(
        (await client.callTool({ name: "verify_attestation", arguments: { attestation: tampered } })) as CallToolResult,
      );
      expect(verdict.valid).to.equal(false);
      expectToolError(
        (await client.callTool({ name: "get_attestation", arguments: { pool: "nope" } })) as CallToolResult,
        "INVALID_POOL_ID",
        "pool",
      );
    } finally {
      await client.close();
    }
    expect(stderr).to.include(
      `attest mcp: store ${join(dir, "service.sqlite")} (read-only); attester ${TEST_ATTESTER}`,
    );
    // The client closed stdin and the process stopped on its own (npx forwards no signal; a kill would print nothing).
    expect(stderr).to.include("attest mcp: the client closed stdin; stopped");
    expect(files.map(digest), "the store's files are unchanged").to.deep.equal(before);
  });

  it("answers what was piped in, writes only JSON-RPC to stdout, logs to stderr, and exits 0 when stdin ends", async function () {
    const call = line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_pools", arguments: {} } });
    const getAttester = line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_attester" } });
    // A pinned attester needs no key at all.
    const { code, stdout, stderr } = await runMcp({ DATA_DIR: dir }, INITIALIZE + call + getAttester, [
      "--attester",
      OTHER.toLowerCase(),
    ]);
    expect(code, stderr).to.equal(0);
    const messages = stdout
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as { jsonrpc: string; id: number; result: Record<string, unknown> })
      // Requests are answered as they finish, not necessarily in order.
      .sort((a, b) => a.id - b.id);
    expect(messages.map((message) => [message.jsonrpc, message.id])).to.deep.equal([
      ["2.0", 1],
      ["2.0", 2],
      ["2.0", 3],
    ]);
    // The same capabilities as over HTTP: fixed lists, no listChanged.
    expect(messages[0].result.capabilities).to.deep.equal({ tools: {}, resources: {}, prompts: {}, completions: {} });
    expect((messages[2].result.structuredContent as { attester: string }).attester).to.equal(OTHER);
    const pools = messages[1].result.structuredContent as { pools: { id: string }[] };
    expect(pools.pools.map((pool) => pool.id)).to.deep.equal(
      (await app.inject({ url: "/api/v1/pools" })).json().pools.map((pool: { id: string }) => pool.id),
    );
    expect(stderr).to.include("attest mcp: the client closed stdin; stopped");
  });

  it("names the fix on a bad setup, in one line, and creates nothing (in process, through the CLI's main)", async function () {
    const empty = join(dir, "no-store-here");
    const noKey = await runInProcess(["mcp"], { DATA_DIR: empty });
    expect(noKey.code).to.equal(64);
    expect(noKey.err[0]).to.match(/^attest mcp: no attester: .*attester\.key does not exist; start the service/);

    const noStore = await runInProcess(["mcp", "--attester", OTHER], { DATA_DIR: empty });
    expect(noStore).to.deep.equal({
      code: 1,
      out: [],
      err: [`attest mcp: Cannot open the SQLite database at ${join(empty, "service.sqlite")} for reading.`],
    });
    expect(existsSync(empty), "nothing is created").to.equal(false);

    const badFlag = await runInProcess(["mcp", "--attester", "0x12"], { DATA_DIR: dir });
    expect(badFlag.code).to.equal(64);
    expect(badFlag.err[0]).to.match(/^attest mcp: --attester "0x12" is not an address/);

    const badKey = await runInProcess(["mcp"], { DATA_DIR: dir, ATTESTER_KEY_FILE: join(dir, "missing.key") });
    expect(badKey.code).to.equal(1);
    expect(badKey.err).to.have.length(1);
    expect(badKey.err[0]).to.match(/^attest mcp: Cannot read key file/);
  });

  it("reads the dev key from the file the service creates", function () {
    expect(CLI_DEV_KEY_FILE).to.equal(DEV_KEY_FILE);
  });
});
