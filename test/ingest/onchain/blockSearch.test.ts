import { expect } from "chai";
import { createPublicClient, http, type PublicClient } from "viem";
import { hardhatArtifact } from "../../../src/chain/artifacts";
import { createChainDriver, type ChainDriver } from "../../../src/chain/chainDriver";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain, type LocalChain } from "../../../src/chain/startLocalChain";
import { findDeployBlock, findFirstBlockAtOrAfter } from "../../../src/ingest/onchain/blockSearch";
import { getBlockTimes, hourOf, resolveBlockHours } from "../../../src/ingest/onchain/blockTimes";
import { countingClient } from "../../helpers/ingest/swaps";

const T0 = Date.UTC(2026, 9, 1) / 1000;

describe("block search and block times", function () {
  let chain: LocalChain;
  let driver: ChainDriver;
  let client: PublicClient;
  /** Timestamp of every block, by number: 200 blocks 7 minutes apart after genesis. */
  const times: number[] = [];
  let registry: `0x${string}`;
  let deployedAt: bigint;

  before(async () => {
    chain = await startLocalChain({ chainId: 1, genesisTime: T0 });
    driver = createChainDriver({ chainId: 1, provider: chain.provider });
    client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
    times.push((await driver.latestBlock()).timestamp);
    for (let i = 1; i <= 200; i++) {
      if (i === 120) {
        await driver.request("evm_setNextBlockTimestamp", [`0x${(T0 + i * 420).toString(16)}`]);
        registry = await driver.deploy({
          from: LOCAL_CHAIN_ACCOUNTS[0].address,
          artifact: hardhatArtifact("AttestationRegistry.sol", "AttestationRegistry"),
          args: [LOCAL_CHAIN_ACCOUNTS[0].address, 10n ** 18n, 86_400n],
        });
        deployedAt = BigInt(i);
      } else await driver.mineAt(T0 + i * 420);
      times.push(T0 + i * 420);
    }
  });
  after(async () => chain?.stop());

  const upTo = () => ({ number: 200n, timestamp: times[200] });

  it("finds the first block at or after a time in few requests", async () => {
    for (const [time, expected] of [
      [T0 + 3600, 9n], // 9 × 420 = 3780 ≥ 3600 > 8 × 420
      [T0 + 420 * 57, 57n],
      [times[200], 200n],
      [T0 - 100, 0n],
    ] as const) {
      const counted = countingClient(client);
      const found = await findFirstBlockAtOrAfter({ client: counted.client, time, upTo: upTo() });
      expect(found, String(time)).to.deep.equal({ number: expected, timestamp: times[Number(expected)] });
      expect(counted.counts.get("eth_getBlockByNumber") ?? 0).to.be.at.most(6);
    }
    expect(await findFirstBlockAtOrAfter({ client, time: times[200] + 1, upTo: upTo() })).to.equal(null);
  });

  it("finds a contract's deployment block by halving on eth_getCode", async () => {
    expect(await findDeployBlock({ client, address: registry, upTo: 200n })).to.equal(deployedAt);
    expect(await findDeployBlock({ client, address: registry, upTo: deployedAt - 1n })).to.equal(null);
  });

  it("gives each block its UTC hour while fetching a few headers per hour boundary", async () => {
    const blocks = Array.from({ length: 150 }, (_, i) => BigInt(i + 30));
    const counted = countingClient(client);
    const hours = await resolveBlockHours({ client: counted.client, blocks, known: new Map() });
    for (const block of blocks) expect(hours.get(block), String(block)).to.equal(hourOf(times[Number(block)]));
    // 150 blocks of 7 minutes cross about 17 hour boundaries.
    expect(counted.counts.get("eth_getBlockByNumber")).to.be.lessThan(100);
    const known = new Map<bigint, number>([[50n, times[50]]]);
    const exact = await getBlockTimes({ client, blocks: [50n, 51n, 51n], known });
    expect([...exact]).to.deep.equal([
      [50n, times[50]],
      [51n, times[51]],
    ]);
    expect(known.get(51n)).to.equal(times[51]);
  });
});
