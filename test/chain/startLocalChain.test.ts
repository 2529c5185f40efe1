import { expect } from "chai";
import { createPublicClient, http } from "viem";
import { LocalChainError } from "../../src/errors/chain";
import {
  LOCAL_CHAIN_ACCOUNT_BALANCE,
  LOCAL_CHAIN_ACCOUNTS,
  startLocalChain,
  type LocalChain,
} from "../../src/chain/startLocalChain";

describe("startLocalChain", function () {
  const genesisTime = Math.floor(Date.now() / 1000) - 30 * 86_400;
  let chain: LocalChain;

  before(async function () {
    chain = await startLocalChain({ chainId: 42161, genesisTime });
  });

  after(async function () {
    await chain.stop();
  });

  it("serves the requested chain id on a loopback URL", async function () {
    expect(chain.rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    expect(await client.getChainId()).to.equal(42161);
  });

  it("starts at the genesis time given, in the past", async function () {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const genesis = await client.getBlock({ blockNumber: 0n });
    expect(Number(genesis.timestamp)).to.equal(genesisTime);
  });

  it("funds every genesis account", async function () {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    for (const account of LOCAL_CHAIN_ACCOUNTS) {
      expect(await client.getBalance({ address: account.address })).to.equal(LOCAL_CHAIN_ACCOUNT_BALANCE);
    }
  });

  it("runs several chains side by side, each with its own id", async function () {
    const [a, b] = await Promise.all([
      startLocalChain({ chainId: 1, genesisTime }),
      startLocalChain({ chainId: 8453, genesisTime }),
    ]);
    try {
      expect(a.rpcUrl).to.not.equal(b.rpcUrl);
      expect(await createPublicClient({ transport: http(a.rpcUrl) }).getChainId()).to.equal(1);
      expect(await createPublicClient({ transport: http(b.rpcUrl) }).getChainId()).to.equal(8453);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  describe("stop", function () {
    it("closes the port, and a second stop is harmless", async function () {
      const other = await startLocalChain({ chainId: 1, genesisTime });
      await other.stop();
      await other.stop();
      let refused = false;
      try {
        await fetch(other.rpcUrl, { method: "POST", body: "{}" });
      } catch {
        refused = true;
      }
      expect(refused).to.equal(true);
    });
  });

  describe("validations", function () {
    it("throws LocalChainError when the port is taken", async function () {
      const port = Number(new URL(chain.rpcUrl).port);
      let error: unknown;
      try {
        await startLocalChain({ chainId: 1, genesisTime, port });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(LocalChainError);
      expect((error as LocalChainError).shortMessage).to.equal(`could not listen on 127.0.0.1:${port}`);
    });

    for (const [label, parameters] of [
      ["a zero chain id", { chainId: 0, genesisTime }],
      ["a fractional chain id", { chainId: 1.5, genesisTime }],
      ["a negative genesis time", { chainId: 1, genesisTime: -1 }],
      ["a port above 65535", { chainId: 1, genesisTime, port: 70_000 }],
    ] as const) {
      it(`throws LocalChainError for ${label}`, async function () {
        let error: unknown;
        try {
          await startLocalChain(parameters);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(LocalChainError);
        expect((error as LocalChainError).code).to.equal("LOCAL_CHAIN_ERROR");
      });
    }
  });
});
