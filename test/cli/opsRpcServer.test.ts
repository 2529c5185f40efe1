import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { createPublicClient, http } from "viem";

import { hardhatAccount, hardhatPrivateKey, MIN_BOND } from "../helpers/actionsFixture";
import { deployFixture } from "../helpers/registryFixture";
import { startHardhatRpcServer, type HardhatRpcServer } from "../helpers/hardhatRpcServer";

const run = promisify(execFile);

async function post(url: string, body: string): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  expect(response.status).to.equal(200);
  return response.json();
}

describe("startHardhatRpcServer", function () {
  let rpc: HardhatRpcServer;
  before(async function () {
    rpc = await startHardhatRpcServer();
  });
  after(async function () {
    await rpc.close();
  });

  it("answers a single request with the provider's result", async function () {
    const expected = await hre.network.provider.request({ method: "eth_chainId", params: [] });
    expect(await post(rpc.url, '{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}')).to.deep.equal({
      jsonrpc: "2.0",
      id: 7,
      result: expected,
    });
  });

  it("answers a batch in order, errors in place", async function () {
    const answer = (await post(
      rpc.url,
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 2, method: "no_such_method", params: [] },
        { jsonrpc: "2.0", id: 3, method: "net_version", params: [] },
      ]),
    )) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(answer.map((r) => r.id)).to.deep.equal([1, 2, 3]);
    expect(answer[0].result).to.equal("0x7a69");
    expect(answer[1].result).to.equal(undefined);
    expect(answer[1].error?.message).to.contain("no_such_method");
    expect(answer[2].result).to.equal("31337");
  });

  it("rejects a body that is not JSON with a parse error", async function () {
    const answer = (await post(rpc.url, "{not json")) as { error: { code: number } };
    expect(answer.error.code).to.equal(-32700);
  });

  it("passes revert data through, so viem decodes custom errors over HTTP", async function () {
    const { registry } = await loadFixture(deployFixture);
    const client = createPublicClient({ transport: http(rpc.url, { retryCount: 0 }) });
    const { attestationRegistryAbi } = await import("../../src/abi/attestationRegistryAbi");
    const error = await client
      .simulateContract({
        address: registry,
        abi: attestationRegistryAbi,
        functionName: "register",
        args: [hardhatAccount(1).address],
        value: 1n,
        account: hardhatAccount(1).address,
      })
      .catch((e: unknown) => e as Error);
    const { ContractFunctionRevertedError } = await import("viem");
    const reverted = (error as unknown as { walk(fn: (e: unknown) => boolean): unknown }).walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as InstanceType<typeof ContractFunctionRevertedError>;
    expect(reverted.data?.errorName).to.equal("BondTooLow");
    expect(reverted.data?.args).to.deep.equal([1n, MIN_BOND]);
  });

  it("serves `npx attest` in a child process (bin/attest.js): status as JSON, exit 0; usage error, exit 64", async function () {
    const { registry } = await loadFixture(deployFixture);
    const bin = path.join(__dirname, "..", "..", "bin", "attest.js");
    const env = {
      ...process.env,
      RPC_URL: rpc.url,
      REGISTRY_ADDRESS: registry,
      ATTESTER_PRIVATE_KEY: hardhatPrivateKey(1),
    };
    const { stdout } = await run(process.execPath, [bin, "status", "--json"], { env });
    expect(JSON.parse(stdout)).to.deep.include({ command: "status" });
    expect(JSON.parse(stdout).state).to.include({ attester: hardhatAccount(1).address, registered: false });
    const failed = await run(process.execPath, [bin, "register", "--bond", "lots"], { env }).catch(
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect((failed as { code: number }).code).to.equal(64);
    expect((failed as { stderr: string }).stderr).to.contain('--bond "lots" is not an amount of ETH');
  });
});
