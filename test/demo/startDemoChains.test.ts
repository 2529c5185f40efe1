import { expect } from "chai";
import { createPublicClient, http, parseAbi, parseAbiItem, type Address, type PublicClient } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { DemoChainError } from "../../src/errors/chain";
import { DEMO_CHAINS, demoPoolSpecs } from "../../src/demo/demoConfig";
import { createPrng, mixSeed } from "../../src/demo/prng";
import { planDemoPool } from "../../src/demo/planDemoPool";
import { startDemoChains, type DemoChains, type DemoDay } from "../../src/demo/startDemoChains";
import { readPools } from "../../src/ingest/onchain/readPools";

const ATTESTER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
const DAYS = 4;

const registryAbi = parseAbi([
  "struct AttesterInfo { bool registered; bool unbonding; bool hasRevoked; uint96 bond; uint64 withdrawableAt; address beneficiary; }",
  "function getAttester(address attester) view returns (AttesterInfo)",
  "function minBond() view returns (uint256)",
]);
const lpAbi = parseAbi(["function totalSupply() view returns (uint256)", "function factory() view returns (address)"]);
const swapEvent = parseAbiItem(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
);

/** Reserves of every AMM pool and supplied amount of every lending pool, keyed by chain and address. */
async function snapshot(demo: DemoChains): Promise<Record<string, Record<string, string | number>>> {
  const out: Record<string, Record<string, string | number>> = {};
  for (const chain of demo.chains) {
    const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
    const { observations, failures } = await readPools({
      client,
      pools: demo.pools.filter((p) => p.chainId === chain.chainId),
    });
    expect(failures).to.deep.equal([]);
    for (const o of observations) {
      out[`${o.chainId}:${o.address}`] =
        o.kind === "amm" ? { r0: o.state.reserve0, r1: o.state.reserve1 } : { borrowed: o.state.borrowed };
    }
  }
  return out;
}

describe("startDemoChains", function () {
  let demo: DemoChains;
  const days: DemoDay[] = [];
  const depthsOnDay: number[] = [];
  /** Chain 1, per day, in pool order: each pair's LP supply, then each reserve's supplied, borrowed and supply rate. */
  const steeredOnDay: { lpSupply: bigint[]; supplied: bigint[]; borrowed: bigint[]; rate: number[] }[] = [];
  const lines: string[] = [];
  let startedAt: number;

  before(async function () {
    startedAt = Math.floor(Date.now() / 1000);
    demo = await startDemoChains({
      days: DAYS,
      seed: 7,
      attesterPrivateKey: ATTESTER_KEY,
      log: (line) => lines.push(line),
      onDay: async (day) => {
        days.push(day);
        // The chains and pools are usable during the history: read chain 1 at the day's last block.
        const chain1 = day.chains.find((c) => c.chainId === 1)!;
        const client = createPublicClient({ transport: http(chain1.rpcUrl) }) as PublicClient;
        const result = await readPools({
          client,
          pools: day.pools.filter((p) => p.chainId === 1),
          blockNumber: day.blocks.find((b) => b.chainId === 1)!.blockNumber,
        });
        depthsOnDay.push(result.observations[0].depthUsd ?? Number.NaN);
        const blockNumber = day.blocks.find((b) => b.chainId === 1)!.blockNumber;
        const byAddress = (address: string) =>
          result.observations.find((o) => o.address.toLowerCase() === address.toLowerCase())!;
        const pools = day.pools.filter((p) => p.chainId === 1);
        steeredOnDay.push({
          lpSupply: await Promise.all(
            pools
              .filter((p) => p.kind === "amm")
              .map((p) =>
                client.readContract({ address: p.address, abi: lpAbi, functionName: "totalSupply", blockNumber }),
              ),
          ),
          supplied: pools.filter((p) => p.kind === "lending").map((p) => BigInt(byAddress(p.address).state.supplied)),
          borrowed: pools.filter((p) => p.kind === "lending").map((p) => BigInt(byAddress(p.address).state.borrowed)),
          rate: pools.filter((p) => p.kind === "lending").map((p) => byAddress(p.address).supplyRatePercent!),
        });
      },
    });
  });

  after(async function () {
    await demo?.stop();
  });

  it("starts chains 1, 42161 and 8453 on loopback URLs", async function () {
    expect(demo.chains.map((c) => c.chainId)).to.deep.equal([1, 42161, 8453]);
    for (const chain of demo.chains) {
      expect(chain.rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await createPublicClient({ transport: http(chain.rpcUrl) }).getChainId()).to.equal(chain.chainId);
    }
  });

  it("lists three Uniswap V2 pairs and two Aave v3 reserves per chain, and SushiSwap V2 pairs on 1 and 42161", function () {
    const sushi: Record<number, string[]> = { 1: ["WETH-USDC"], 42161: ["ARB-WETH"], 8453: [] };
    for (const chainId of [1, 42161, 8453]) {
      const pools = demo.pools.filter((p) => p.chainId === chainId);
      expect(pools.filter((p) => p.kind === "amm" && p.protocol === "uniswap-v2")).to.have.length(3);
      expect(pools.filter((p) => p.protocol === "sushiswap-v2").map((p) => p.symbol)).to.deep.equal(sushi[chainId]);
      const lending = pools.filter((p) => p.kind === "lending" && p.protocol === "aave-v3");
      expect(lending.map((p) => p.symbol)).to.deep.equal(["USDC", "WETH"]);
      for (const p of lending) expect(p.lendingPool).to.match(/^0x[0-9a-fA-F]{40}$/);
    }
    expect(demo.pools).to.have.length(17);
    expect(demo.tokens[1].USDC.decimals).to.equal(6);
  });

  it("deploys the second venue as its own factory running the Uniswap V2 pair bytecode", async function () {
    for (const chainId of [1, 42161]) {
      const client = createPublicClient({ transport: http(demo.chains.find((c) => c.chainId === chainId)!.rpcUrl) });
      const factoryOf = (address: Address) => client.readContract({ address, abi: lpAbi, functionName: "factory" });
      const uni = demo.pools.find((p) => p.chainId === chainId && p.protocol === "uniswap-v2")!;
      const sushi = demo.pools.find((p) => p.chainId === chainId && p.protocol === "sushiswap-v2")!;
      expect(await factoryOf(sushi.address)).to.not.equal(await factoryOf(uni.address));
      expect(await client.getCode({ address: sushi.address })).to.equal(await client.getCode({ address: uni.address }));
    }
  });

  it("swaps on every pair every day, in sessions spread through the day", async function () {
    for (const chain of demo.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
      const pairs = demo.pools.filter((p) => p.chainId === chain.chainId && p.kind === "amm");
      const logs = await client.getLogs({
        address: pairs.map((p) => p.address),
        event: swapEvent,
        fromBlock: 0n,
        toBlock: "latest",
      });
      const ends = days.map((d) => d.blocks.find((b) => b.chainId === chain.chainId)!.blockNumber);
      const dayOf = (block: bigint) => ends.findIndex((end) => block <= end);
      for (let d = 0; d < DAYS; d++) {
        const today = logs.filter((log) => dayOf(log.blockNumber) === d);
        for (const pair of pairs) {
          const own = today.filter((log) => log.address.toLowerCase() === pair.address.toLowerCase());
          expect(own.length, `chain ${chain.chainId} ${pair.protocol} ${pair.symbol} day ${d}`).to.be.at.least(1);
        }
        if (d === 0) continue; // day 0 follows the setup, an hour before its end
        const times = await Promise.all(
          [today[0], today[today.length - 1]].map(async (log) =>
            Number((await client.getBlock({ blockNumber: log.blockNumber })).timestamp),
          ),
        );
        // Several trading sessions through the day, not one moment.
        expect(times[1] - times[0], `chain ${chain.chainId} day ${d}`).to.be.greaterThan(3600);
      }
    }
  });

  it("awaits onDay once per day, a day apart, the last at the present", function () {
    expect(days.map((d) => d.index)).to.deep.equal([0, 1, 2, 3]);
    for (let i = 1; i < DAYS - 1; i++) expect(days[i].time - days[i - 1].time).to.be.closeTo(86_400, 300);
    const now = Math.floor(Date.now() / 1000);
    expect(days[DAYS - 1].time).to.be.within(startedAt - 120, now + 120);
    expect(days[0].time).to.be.closeTo(startedAt - (DAYS - 1) * 86_400, 300);
  });

  it("hands onDay the chains, the pools and each chain's last block of the day", function () {
    for (const day of days) {
      expect(day.chains).to.deep.equal(demo.chains);
      expect(day.pools).to.deep.equal(demo.pools);
      expect(day.blocks.map((b) => b.chainId)).to.deep.equal([1, 42161, 8453]);
      expect(day.time).to.equal(Math.max(...day.blocks.map((b) => b.time)));
    }
    // The WETH-USDC pair on chain 1 had depth every day, and it moved (swaps and liquidity changes).
    expect(depthsOnDay).to.have.length(DAYS);
    for (const depth of depthsOnDay) expect(depth).to.be.greaterThan(1_000_000);
    expect(new Set(depthsOnDay).size).to.be.greaterThan(1);
  });

  it("steers every pool on chain 1 to its planned liquidity and utilisation each day", function () {
    const chain = DEMO_CHAINS[0];
    const specs = demoPoolSpecs(chain);
    const plans = specs.map((p, i) =>
      planDemoPool({ spec: p.spec, days: DAYS, rng: createPrng(mixSeed(7, 1, 1 + i)) }),
    );
    const planOf = (pool: { protocol: string; symbol: string }) =>
      plans[specs.findIndex((p) => p.protocol === pool.protocol && p.name === pool.symbol)];
    const pools = demo.pools.filter((p) => p.chainId === 1);
    const pairs = pools.filter((p) => p.kind === "amm");
    const reserves = pools.filter((p) => p.kind === "lending");
    const ratio = (a: bigint, b: bigint) => Number((a * 10n ** 12n) / b) / 1e12;
    expect(steeredOnDay).to.have.length(DAYS);
    for (let d = 0; d < DAYS; d++) {
      pairs.forEach((pair, i) => {
        // LP supply relative to day 0 (which the plan pins at 1): exact up to rounding.
        expect(ratio(steeredOnDay[d].lpSupply[i], steeredOnDay[0].lpSupply[i])).to.be.closeTo(
          planOf(pair).liquidity[d],
          1e-6,
        );
      });
      reserves.forEach((reserve, i) => {
        const plan = planOf(reserve);
        const { supplied, borrowed } = steeredOnDay[d];
        // Interest accrues between the day's transactions and its last block: within 0.1 %.
        expect(ratio(supplied[i], steeredOnDay[0].supplied[i])).to.be.closeTo(
          plan.liquidity[d],
          1e-3 * plan.liquidity[d],
        );
        expect(ratio(borrowed[i], supplied[i])).to.be.closeTo(plan.utilization![d], 1e-3);
      });
    }
  });

  it("moves each reserve's exitable liquidity and supply rate from day to day", function () {
    for (let i = 0; i < 2; i++) {
      const exitable = steeredOnDay.map((day) => day.supplied[i] - day.borrowed[i]);
      const rates = steeredOnDay.map((day) => day.rate[i]);
      expect(new Set(exitable).size, `reserve ${i} exitable`).to.equal(DAYS);
      expect(new Set(rates).size, `reserve ${i} rate`).to.equal(DAYS);
      for (const rate of rates) expect(rate).to.be.greaterThan(0);
    }
  });

  it("keeps chain time in step with the wall clock after the history", async function () {
    for (const chain of demo.chains) {
      const block = await createPublicClient({ transport: http(chain.rpcUrl) }).getBlock();
      expect(Number(block.timestamp)).to.be.closeTo(Math.floor(Date.now() / 1000), 120);
    }
  });

  it("registers the attester in the AttestationRegistry on chain 1 with the minimum bond", async function () {
    expect(demo.registry.chainId).to.equal(1);
    const client = createPublicClient({ transport: http(demo.chains[0].rpcUrl) });
    const info = await client.readContract({
      address: demo.registry.address,
      abi: registryAbi,
      functionName: "getAttester",
      args: [privateKeyToAddress(ATTESTER_KEY)],
    });
    const minBond = await client.readContract({
      address: demo.registry.address,
      abi: registryAbi,
      functionName: "minBond",
    });
    expect(info.registered).to.equal(true);
    expect(info.bond).to.equal(minBond);
  });

  it("leaves every pool readable, priced and deep, with borrowing under way", async function () {
    for (const chain of demo.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
      const result = await readPools({ client, pools: demo.pools.filter((p) => p.chainId === chain.chainId) });
      expect(result.failures).to.deep.equal([]);
      expect(result.observations).to.have.length(chain.chainId === 8453 ? 5 : 6);
      for (const o of result.observations) {
        expect(o.depthUsd).to.be.greaterThan(100_000);
        if (o.kind === "lending") {
          expect(BigInt(o.state.borrowed)).to.be.greaterThan(0n);
          expect(o.supplyRatePercent).to.be.greaterThan(0).and.lessThan(100);
        }
      }
    }
  });

  it("logs readable progress lines", function () {
    expect(lines.some((l) => /^chain 1: .*uniswap-v2 factory 0x[0-9a-fA-F]{40}, 3 pairs/.test(l))).to.equal(true);
    expect(lines.some((l) => /^chain 42161: sushiswap-v2 factory .*Uniswap V2 bytecode.*1 pair$/.test(l))).to.equal(
      true,
    );
    expect(lines.some((l) => /AttestationRegistry 0x[0-9a-fA-F]{40}/.test(l))).to.equal(true);
    expect(lines.some((l) => l.startsWith(`demo: ${DAYS} day(s) on 3 chains`))).to.equal(true);
    // The scripted decline of ARB-USDC (liquidity mining ended) is announced.
    expect(lines.some((l) => /^chain 42161: scripted activity: .*ARB-USDC: LPs leaving from day 2/.test(l))).to.equal(
      true,
    );
  });

  describe("determinism", function () {
    it("gives the same addresses and pair reserves for the same seed, and other reserves for another", async function () {
      const first = await snapshot(demo);
      const again = await startDemoChains({ days: DAYS, seed: 7, attesterPrivateKey: ATTESTER_KEY, log: () => {} });
      let same: Record<string, Record<string, string | number>>;
      try {
        expect(again.pools).to.deep.equal(demo.pools);
        expect(again.registry).to.deep.equal(demo.registry);
        same = await snapshot(again);
      } finally {
        await again.stop();
      }
      const other = await startDemoChains({ days: DAYS, seed: 8, attesterPrivateKey: ATTESTER_KEY, log: () => {} });
      let different: Record<string, Record<string, string | number>>;
      try {
        expect(other.pools.map((p) => p.address)).to.deep.equal(demo.pools.map((p) => p.address));
        different = await snapshot(other);
      } finally {
        await other.stop();
      }
      const amm = (s: Record<string, Record<string, string | number>>) =>
        Object.fromEntries(Object.entries(s).filter(([, v]) => "r0" in v));
      expect(amm(same)).to.deep.equal(amm(first));
      expect(amm(different)).to.not.deep.equal(amm(first));
    });
  });

  describe("validations", function () {
    for (const [label, parameters] of [
      ["zero days", { days: 0, attesterPrivateKey: ATTESTER_KEY }],
      ["fractional days", { days: 1.5, attesterPrivateKey: ATTESTER_KEY }],
      ["a short attester key", { days: 1, attesterPrivateKey: "0x1234" as const }],
    ] as const) {
      it(`throws DemoChainError for ${label}`, async function () {
        let error: unknown;
        try {
          await startDemoChains({ ...parameters, log: () => {} });
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(DemoChainError);
      });
    }
  });
});
