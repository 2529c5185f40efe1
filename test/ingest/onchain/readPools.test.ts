import { expect } from "chai";
import { createPublicClient, custom, http, parseAbi, type Address, type PublicClient } from "viem";
import { mainnet } from "viem/chains";
import { aaveBorrow, aaveSupply, deployAaveV3Market, type AaveMarket } from "../../../src/chain/aaveV3";
import { createChainDriver } from "../../../src/chain/chainDriver";
import { deployMulticall3 } from "../../../src/chain/multicall3";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain, type LocalChain } from "../../../src/chain/startLocalChain";
import {
  addLiquidity,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  readPair,
  type DemoToken,
} from "../../../src/chain/uniswapV2";
import { ReadPoolsError } from "../../../src/errors/chain";
import { getExitCapacity } from "../../../src/model/pairMath";
import { readPools, type OnchainPoolRef } from "../../../src/ingest/onchain/readPools";
import { rejection } from "../../helpers/rejection";

const [ADMIN, LP, SUPPLIER, BORROWER] = LOCAL_CHAIN_ACCOUNTS.map((a) => a.address);
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

/** A client whose requests are counted independently of readPools' own count. */
function countingClient(url: string) {
  const inner = createPublicClient({ transport: http(url) });
  const counter = { requests: 0 };
  const client = createPublicClient({
    chain: mainnet,
    transport: custom({
      request: (args: { method: string; params?: unknown }) => {
        counter.requests++;
        return inner.request(args as never);
      },
    }),
  }) as PublicClient;
  return { client, counter };
}

describe("readPools", function () {
  let chain: LocalChain;
  let usdc: DemoToken;
  let weth: DemoToken;
  let link: DemoToken;
  let wethUsdc: Address;
  let linkWeth: Address;
  let market: AaveMarket;
  let aUsdc: Address;
  let aWeth: Address;
  let client: PublicClient;

  // One chain for the whole suite: 1,000 WETH / 3,000,000 USDC, 20,000 LINK / 100 WETH, and an Aave market
  // with 1,000,000 USDC supplied and 250,000 USDC borrowed against 200 WETH.
  before(async function () {
    chain = await startLocalChain({ chainId: 1, genesisTime: Math.floor(Date.now() / 1000) - 86_400 });
    const driver = createChainDriver({ chainId: 1, provider: chain.provider });
    await deployMulticall3(driver, ADMIN);
    usdc = await deployToken(driver, ADMIN, { name: "USD Coin", symbol: "USDC", decimals: 6 });
    weth = await deployToken(driver, ADMIN, { name: "Wrapped Ether", symbol: "WETH", decimals: 18 });
    link = await deployToken(driver, ADMIN, { name: "Chainlink", symbol: "LINK", decimals: 18 });
    const factory = await deployUniswapV2Factory(driver, ADMIN);
    const amounts: Record<string, bigint> = {
      [weth.address]: 1000n * E18,
      [usdc.address]: 3_000_000n * E6,
    };
    wethUsdc = await createPair(driver, ADMIN, factory, weth.address, usdc.address);
    let { token0, token1 } = await readPair(driver, wethUsdc);
    await addLiquidity(driver, {
      from: LP,
      pair: wethUsdc,
      token0,
      amount0: amounts[token0],
      token1,
      amount1: amounts[token1],
    });
    linkWeth = await createPair(driver, ADMIN, factory, link.address, weth.address);
    ({ token0, token1 } = await readPair(driver, linkWeth));
    const linkAmounts: Record<string, bigint> = { [link.address]: 20_000n * E18, [weth.address]: 100n * E18 };
    await addLiquidity(driver, {
      from: LP,
      pair: linkWeth,
      token0,
      amount0: linkAmounts[token0],
      token1,
      amount1: linkAmounts[token1],
    });

    const risk = { ltvBps: 8000, liquidationThresholdBps: 8500, liquidationBonusBps: 10500, reserveFactorBps: 1000 };
    market = await deployAaveV3Market(driver, {
      admin: ADMIN,
      reserves: [
        { token: usdc, priceUsd8: 100_000_000n, ...risk },
        { token: weth, priceUsd8: 300_000_000_000n, ...risk },
      ],
    });
    await aaveSupply(driver, market, { user: SUPPLIER, asset: usdc.address, amount: 1_000_000n * E6 });
    await aaveSupply(driver, market, { user: BORROWER, asset: weth.address, amount: 200n * E18 });
    await aaveBorrow(driver, market, { user: BORROWER, asset: usdc.address, amount: 250_000n * E6 });
    aUsdc = market.reserves[usdc.address.toLowerCase()].aToken;
    aWeth = market.reserves[weth.address.toLowerCase()].aToken;
    client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
  });

  after(async function () {
    await chain.stop();
  });

  const amm = (address: Address): OnchainPoolRef => ({ chainId: 1, address, kind: "amm" });

  describe("AMM pairs", function () {
    it("reads back exactly the reserves put in, with the tokens' decimals", async function () {
      const { observations, failures } = await readPools({ client, pools: [amm(wethUsdc)] });
      expect(failures).to.deep.equal([]);
      const state = observations[0].state;
      const bySymbol = {
        [state.symbol0 as string]: { reserve: state.reserve0, decimals: state.decimals0 },
        [state.symbol1 as string]: { reserve: state.reserve1, decimals: state.decimals1 },
      };
      expect(bySymbol.WETH).to.deep.equal({ reserve: (1000n * E18).toString(), decimals: 18 });
      expect(bySymbol.USDC).to.deep.equal({ reserve: (3_000_000n * E6).toString(), decimals: 6 });
    });

    it("derives prices from the pairs against the USD anchor, across two hops", async function () {
      const { observations } = await readPools({ client, pools: [amm(wethUsdc), amm(linkWeth)] });
      const [direct, hop] = observations;
      // WETH = 3,000,000 USDC / 1,000 WETH = $3,000; depth = 2 × $3,000,000.
      expect(direct.depthUsd).to.equal(6_000_000);
      const wethSide = direct.state.symbol0 === "WETH" ? "price0" : "price1";
      expect(direct.state[`${wethSide}Usd`]).to.equal(3000);
      expect(direct.state[`${wethSide}Source`]).to.equal(`pair:${wethUsdc}`);
      // LINK = 100 WETH / 20,000 LINK × $3,000 = $15; depth = 20,000 × 15 + 100 × 3,000 = $600,000.
      expect(hop.depthUsd).to.be.closeTo(600_000, 1e-6);
      const linkSide = hop.state.symbol0 === "LINK" ? "price0" : "price1";
      expect(hop.state[`${linkSide}Usd`]).to.be.closeTo(15, 1e-12);
      expect(hop.exitableUsd).to.equal(null);
      expect(hop.supplyRatePercent).to.equal(null);
    });

    it("uses given prices instead of deriving them, and leaves depth null where one is missing", async function () {
      const given = await readPools({
        client,
        pools: [amm(wethUsdc), amm(linkWeth)],
        prices: { [weth.address]: 2000, [usdc.address]: 1 },
      });
      expect(given.observations[0].depthUsd).to.equal(1000 * 2000 + 3_000_000);
      expect(given.observations[0].state.price0Source).to.equal("given");
      expect(given.observations[1].depthUsd).to.equal(null);
    });

    it("prices nothing without an anchor: depth is null, reserves are still read", async function () {
      const { observations } = await readPools({ client, pools: [amm(linkWeth)] });
      expect(observations[0].depthUsd).to.equal(null);
      expect(observations[0].state.reserve0).to.be.a("string");
    });

    it("reports the constant-product exit capacity at the slippage asked for", async function () {
      const { observations } = await readPools({ client, pools: [amm(wethUsdc)], exitSlippageBps: 500 });
      const state = observations[0].state;
      const expected = getExitCapacity({
        reserveIn: BigInt(state.reserve0),
        reserveOut: BigInt(state.reserve1),
        maxSlippageBps: 500,
      });
      expect(state.exitSlippageBps).to.equal(500);
      expect(state.exitToken0In).to.equal(expected.amountIn.toString());
      expect(state.exitToken1Out).to.equal(expected.amountOut.toString());
    });
  });

  describe("lending reserves", function () {
    it("publishes exitable = supplied − borrowed exactly, at the read's block", async function () {
      const result = await readPools({
        client,
        pools: [{ chainId: 1, address: aUsdc, kind: "lending", lendingPool: market.pool, underlying: usdc.address }],
      });
      expect(result.failures).to.deep.equal([]);
      const obs = result.observations[0];
      const erc20 = parseAbi(["function totalSupply() view returns (uint256)"]);
      const at = { blockNumber: result.blockNumber } as const;
      const supplied = await client.readContract({ address: aUsdc, abi: erc20, functionName: "totalSupply", ...at });
      const r = market.reserves[usdc.address.toLowerCase()];
      const variable = await client.readContract({
        address: r.variableDebtToken,
        abi: erc20,
        functionName: "totalSupply",
        ...at,
      });
      const stable = await client.readContract({
        address: r.stableDebtToken,
        abi: erc20,
        functionName: "totalSupply",
        ...at,
      });
      expect(obs.state.supplied).to.equal(supplied.toString());
      expect(obs.state.borrowed).to.equal((variable + stable).toString());
      expect(obs.state.exitable).to.equal((supplied - variable - stable).toString());
      expect(supplied - variable - stable).to.be.greaterThan(749_000n * E6);
      expect(obs.exitableUsd).to.equal(Number(supplied - variable - stable) / 1e6);
      expect(obs.depthUsd).to.equal(obs.exitableUsd);
    });

    it("gives the supply rate as a percent (not a fraction, not ×100 again)", async function () {
      const { observations } = await readPools({ client, pools: [{ chainId: 1, address: aUsdc, kind: "lending" }] });
      // 25 % utilisation on the 80 % / 4 % slope: borrow 1.25 %; supply = 1.25 % × 0.25 × (1 − 10 % reserve factor).
      expect(observations[0].supplyRatePercent).to.be.closeTo(0.28125, 1e-6);
      expect(observations[0].state.variableBorrowRatePercent).to.be.closeTo(1.25, 1e-6);
    });

    it("prices a non-anchor reserve from the pairs read in the same pass", async function () {
      const { observations } = await readPools({
        client,
        pools: [amm(wethUsdc), { chainId: 1, address: aWeth, kind: "lending" }],
      });
      expect(observations[1].state.priceUsd).to.equal(3000);
      expect(observations[1].exitableUsd).to.equal(200 * 3000);
      expect(observations[1].supplyRatePercent).to.equal(0);
    });
  });

  describe("failures", function () {
    it("lists a pool whose reads fail and still observes the others", async function () {
      const result = await readPools({ client, pools: [amm(weth.address), amm(wethUsdc)] });
      expect(result.failures.map((f) => f.address)).to.deep.equal([weth.address]);
      expect(result.observations.map((o) => o.address)).to.deep.equal([wethUsdc]);
    });

    it("fails a lending pool whose configured underlying is not the aToken's", async function () {
      const result = await readPools({
        client,
        pools: [{ chainId: 1, address: aUsdc, kind: "lending", underlying: weth.address }],
      });
      expect(result.observations).to.deep.equal([]);
      expect(result.failures[0].error).to.match(/underlying/);
    });
  });

  describe("RPC requests", function () {
    it("counts every request the pass sends", async function () {
      const { client: counted, counter } = countingClient(chain.rpcUrl);
      const result = await readPools({
        client: counted,
        pools: [amm(wethUsdc), { chainId: 1, address: aUsdc, kind: "lending" }],
      });
      expect(result.rpcRequests).to.equal(counter.requests);
      // One block read + three multicall rounds.
      expect(result.rpcRequests).to.equal(4);
    });

    it("does not grow with the number of pools inside a batch", async function () {
      const few = await readPools({ client, pools: [amm(wethUsdc)] });
      const many = await readPools({ client, pools: Array.from({ length: 300 }, () => amm(wethUsdc)) });
      expect(many.observations).to.have.length(300);
      expect(many.rpcRequests).to.equal(few.rpcRequests);
    });

    it("reads the same through viem's deployless multicall (no Multicall3 needed)", async function () {
      const pools = [amm(wethUsdc), { chainId: 1, address: aUsdc, kind: "lending" as const }];
      const viaContract = await readPools({ client, pools });
      const deployless = await readPools({ client, pools, deployless: true, multicallAddress: ADMIN });
      expect(deployless.observations).to.deep.equal(viaContract.observations);
      expect(deployless.rpcRequests).to.equal(viaContract.rpcRequests);
    });

    it("fails every pool, without throwing, when the multicall address has no contract", async function () {
      const result = await readPools({ client, pools: [amm(wethUsdc)], multicallAddress: ADMIN });
      expect(result.observations).to.deep.equal([]);
      expect(result.failures.map((f) => f.address)).to.deep.equal([wethUsdc]);
    });

    it("grows with the number of multicall batches", async function () {
      const pools = Array.from({ length: 40 }, () => amm(wethUsdc));
      const big = await readPools({ client, pools, batchSize: 100_000 });
      const small = await readPools({ client, pools, batchSize: 48 });
      // 120 four-byte calls in 48-byte batches: 10 batches in round 1 instead of 1.
      expect(small.rpcRequests - big.rpcRequests).to.equal(9);
    });
  });

  describe("validations", function () {
    /** The ReadPoolsError `promise` rejects with, its short message matching `shortMessage`. */
    async function rejects(promise: Promise<unknown>, shortMessage: RegExp): Promise<ReadPoolsError> {
      const error = await rejection(promise);
      expect(error).to.be.instanceOf(ReadPoolsError);
      expect((error as ReadPoolsError).shortMessage).to.match(shortMessage);
      expect((error as ReadPoolsError).code).to.equal("READ_POOLS_INVALID");
      return error as ReadPoolsError;
    }

    it("rejects pools from several chains", async function () {
      const error = await rejects(
        readPools({ client, pools: [amm(wethUsdc), { ...amm(linkWeth), chainId: 8453 }] }),
        /^pools span several chains \((1, 8453|8453, 1)\)$/,
      );
      expect(error.metaMessages).to.deep.equal(["Call readPools once per chain, with that chain's client."]);
    });

    it("rejects pools of another chain than the client's", async function () {
      const { client: mainnetClient } = countingClient(chain.rpcUrl);
      await rejects(
        readPools({ client: mainnetClient, pools: [{ ...amm(wethUsdc), chainId: 8453 }] }),
        /^pools are on chain 8453 but the client is for chain 1$/,
      );
    });

    it("rejects a malformed address, an unknown kind and a bad price", async function () {
      await rejects(
        readPools({ client, pools: [amm("0x1234" as Address)] }),
        /^pool 0x1234: address is not an address: 0x1234$/,
      );
      await rejects(
        readPools({ client, pools: [{ ...amm(wethUsdc), kind: "vault" as "amm" }] }),
        new RegExp(`^pool ${wethUsdc}: kind must be "amm" or "lending", got vault$`),
      );
      await rejects(
        readPools({ client, pools: [amm(wethUsdc)], prices: { [usdc.address]: Number.NaN } }),
        new RegExp(`^prices\\[${usdc.address}\\] must be a finite non-negative number, got NaN$`),
      );
    });
  });
});
