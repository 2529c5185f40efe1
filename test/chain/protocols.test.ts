import { expect } from "chai";
import { parseAbi, type Address } from "viem";
import {
  aaveBorrow,
  aaveRepay,
  aaveSupply,
  aaveViaMulticall,
  aaveWithdraw,
  deployAaveV3Market,
  type AaveMarket,
} from "../../src/chain/aaveV3";
import { aaveArtifact, linkBytecode, uniswapV2Artifact } from "../../src/chain/artifacts";
import { createChainDriver, type ChainDriver } from "../../src/chain/chainDriver";
import { deployMulticall3, multicallWrite } from "../../src/chain/multicall3";
import { DemoChainError } from "../../src/errors/chain";
import { LOCAL_CHAIN_ACCOUNTS, startLocalChain, type LocalChain } from "../../src/chain/startLocalChain";
import {
  addLiquidity,
  addLiquidityViaMulticall,
  createPair,
  deployToken,
  deployUniswapV2Factory,
  getReserves,
  lpBalance,
  readPair,
  removeLiquidity,
  swapExactIn,
  swapViaMulticall,
  type DemoToken,
} from "../../src/chain/uniswapV2";
import { getAmountOut } from "../../src/model/pairMath";

const [ADMIN, LP, TRADER, SUPPLIER, BORROWER] = LOCAL_CHAIN_ACCOUNTS.map((a) => a.address);
const erc20 = parseAbi([
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
]);

describe("protocol deployments from npm bytecode", function () {
  let chain: LocalChain;
  let driver: ChainDriver;
  let usdc: DemoToken;
  let weth: DemoToken;

  before(async function () {
    chain = await startLocalChain({ chainId: 8453, genesisTime: Math.floor(Date.now() / 1000) - 86_400 });
    driver = createChainDriver({ chainId: 8453, provider: chain.provider });
    usdc = await deployToken(driver, ADMIN, { name: "USD Coin", symbol: "USDC", decimals: 6 });
    weth = await deployToken(driver, ADMIN, { name: "Wrapped Ether", symbol: "WETH", decimals: 18 });
    await deployMulticall3(driver, ADMIN);
  });

  after(async function () {
    await chain.stop();
  });

  describe("linkBytecode", function () {
    it("fills every library placeholder of Aave's Pool", function () {
      const libraries = Object.fromEntries(
        [
          "SupplyLogic",
          "BorrowLogic",
          "LiquidationLogic",
          "EModeLogic",
          "BridgeLogic",
          "FlashLoanLogic",
          "PoolLogic",
        ].map((name, i) => [name, `0x${(i + 1).toString(16).padStart(40, "0")}` as Address]),
      );
      const linked = linkBytecode(aaveArtifact("Pool"), libraries);
      expect(linked).to.not.include("__$");
      expect(linked).to.include("0000000000000000000000000000000000000002");
      expect(linked.length).to.equal(aaveArtifact("Pool").bytecode.length);
    });

    it("throws DemoChainError naming a missing library", function () {
      expect(() => linkBytecode(aaveArtifact("Pool"), {})).to.throw(DemoChainError, /needs library/);
    });

    it("prefixes Uniswap's bare hex bytecode with 0x", function () {
      expect(uniswapV2Artifact("UniswapV2Pair").bytecode.startsWith("0x60")).to.equal(true);
    });
  });

  describe("Uniswap V2", function () {
    let pair: Address;
    let token0: Address;
    let token1: Address;

    before(async function () {
      const factory = await deployUniswapV2Factory(driver, ADMIN);
      pair = await createPair(driver, ADMIN, factory, weth.address, usdc.address);
      ({ token0, token1 } = await readPair(driver, pair));
    });

    it("mints LP tokens for liquidity sent to the pair, at the deposited reserves", async function () {
      await addLiquidity(driver, { from: LP, pair, token0, amount0: 4_000_000n, token1, amount1: 9_000_000n });
      const { reserve0, reserve1 } = await readPair(driver, pair);
      expect([reserve0, reserve1]).to.deep.equal([4_000_000n, 9_000_000n]);
      // sqrt(4e6 · 9e6) − 1000 locked forever.
      expect(await lpBalance(driver, pair, LP)).to.equal(6_000_000n - 1000n);
    });

    it("swaps for exactly the invariant's output, and refuses one unit more", async function () {
      const before = await readPair(driver, pair);
      const out = await swapExactIn(driver, { from: TRADER, pair, tokenIn: token0, amountIn: 100_000n });
      expect(out).to.equal(
        getAmountOut({ amountIn: 100_000n, reserveIn: before.reserve0, reserveOut: before.reserve1 }),
      );
      const after = await readPair(driver, pair);
      expect([after.reserve0, after.reserve1]).to.deep.equal([before.reserve0 + 100_000n, before.reserve1 - out]);

      // Same trade by hand, asking for one unit more than the invariant allows: the pair reverts (UniswapV2: K).
      const greedy = getAmountOut({ amountIn: 100_000n, reserveIn: after.reserve0, reserveOut: after.reserve1 }) + 1n;
      await driver.write({
        from: TRADER,
        address: token0,
        abi: aaveArtifact("MintableERC20").abi,
        functionName: "mint",
        args: [pair, 100_000n],
      });
      let error: unknown;
      try {
        await driver.write({
          from: TRADER,
          address: pair,
          abi: uniswapV2Artifact("UniswapV2Pair").abi,
          functionName: "swap",
          args: [0n, greedy, TRADER, "0x"],
        });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(DemoChainError);
      expect(String((error as DemoChainError).details)).to.match(/UniswapV2: K/);
    });

    it("adds liquidity and swaps in one transaction each through Multicall3, with the pair's own arithmetic", async function () {
      const factory = await deployUniswapV2Factory(driver, ADMIN);
      const other = await createPair(driver, ADMIN, factory, weth.address, usdc.address);
      expect(other).to.not.equal(pair);
      const tokens = await readPair(driver, other);
      const sent = driver.transactions;
      await addLiquidityViaMulticall(driver, {
        from: LP,
        pair: other,
        token0: tokens.token0,
        amount0: 4_000_000n,
        token1: tokens.token1,
        amount1: 9_000_000n,
      });
      expect(await lpBalance(driver, other, LP)).to.equal(6_000_000n - 1000n);
      const before = await getReserves(driver, other);
      expect(before).to.deep.equal({ reserve0: 4_000_000n, reserve1: 9_000_000n });
      const out = await swapViaMulticall(driver, {
        from: TRADER,
        pair: other,
        token0: tokens.token0,
        token1: tokens.token1,
        zeroForOne: false,
        amountIn: 300_000n,
        ...before,
      });
      expect(out).to.equal(getAmountOut({ amountIn: 300_000n, reserveIn: 9_000_000n, reserveOut: 4_000_000n }));
      expect(await getReserves(driver, other)).to.deep.equal({ reserve0: 4_000_000n - out, reserve1: 9_300_000n });
      // The output reached the trader; one transaction for the deposit, one for the swap.
      const balance = await driver.read<bigint>({
        address: tokens.token0,
        abi: erc20,
        functionName: "balanceOf",
        args: [TRADER],
      });
      expect(balance).to.be.at.least(out);
      expect(driver.transactions - sent).to.equal(2);
    });

    it("reverts a Multicall3 batch whole when one call fails", async function () {
      const { reserve0, reserve1 } = await getReserves(driver, pair);
      let error: unknown;
      try {
        await multicallWrite(driver, TRADER, [
          { address: usdc.address, abi: aaveArtifact("MintableERC20").abi, functionName: "mint", args: [pair, 10n] },
          {
            address: pair,
            abi: uniswapV2Artifact("UniswapV2Pair").abi,
            functionName: "swap",
            args: [0n, reserve1, TRADER, "0x"],
          },
        ]);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(DemoChainError);
      expect(await getReserves(driver, pair)).to.deep.equal({ reserve0, reserve1 });
    });

    it("returns a proportional share on burn", async function () {
      const { reserve0, reserve1 } = await readPair(driver, pair);
      const supply = await driver.read<bigint>({ address: pair, abi: erc20, functionName: "totalSupply" });
      const liquidity = (await lpBalance(driver, pair, LP)) / 4n;
      const balance0 = await driver.read<bigint>({
        address: token0,
        abi: erc20,
        functionName: "balanceOf",
        args: [LP],
      });
      await removeLiquidity(driver, { from: LP, pair, liquidity });
      const received =
        (await driver.read<bigint>({ address: token0, abi: erc20, functionName: "balanceOf", args: [LP] })) - balance0;
      // The pended token0 of the refused swap above counts towards the pair's balance (the pair pays out of balances).
      expect(received).to.be.at.least((liquidity * reserve0) / supply);
      const after = await readPair(driver, pair);
      expect(after.reserve1).to.equal(reserve1 - (liquidity * reserve1) / supply);
    });
  });

  describe("Aave v3", function () {
    let market: AaveMarket;
    const E6 = 10n ** 6n;
    const E18 = 10n ** 18n;

    before(async function () {
      const risk = { ltvBps: 8000, liquidationThresholdBps: 8500, liquidationBonusBps: 10500, reserveFactorBps: 0 };
      market = await deployAaveV3Market(driver, {
        admin: ADMIN,
        reserves: [
          { token: usdc, priceUsd8: 100_000_000n, ...risk },
          { token: weth, priceUsd8: 300_000_000_000n, ...risk },
        ],
      });
    });

    it("wires the Pool and PoolConfigurator proxies and lists both reserves", async function () {
      const provider = aaveArtifact("PoolAddressesProvider").abi;
      expect(await driver.read({ address: market.addressesProvider, abi: provider, functionName: "getPool" })).to.equal(
        market.pool,
      );
      expect(
        await driver.read({ address: market.addressesProvider, abi: provider, functionName: "getPriceOracle" }),
      ).to.equal(market.oracle);
      const list = await driver.read<Address[]>({
        address: market.pool,
        abi: aaveArtifact("Pool").abi,
        functionName: "getReservesList",
      });
      expect(list).to.deep.equal([usdc.address, weth.address]);
    });

    it("moves aToken and debt totals by exactly what users supply, borrow, repay and withdraw", async function () {
      const r = market.reserves[usdc.address.toLowerCase()];
      await aaveSupply(driver, market, { user: SUPPLIER, asset: usdc.address, amount: 500_000n * E6 });
      await aaveSupply(driver, market, { user: BORROWER, asset: weth.address, amount: 100n * E18 });
      expect(await driver.read({ address: r.aToken, abi: erc20, functionName: "totalSupply" })).to.equal(500_000n * E6);
      await aaveBorrow(driver, market, { user: BORROWER, asset: usdc.address, amount: 100_000n * E6 });
      const debt = await driver.read<bigint>({ address: r.variableDebtToken, abi: erc20, functionName: "totalSupply" });
      expect(debt).to.be.within(100_000n * E6, 100_000n * E6 + 10n);
      expect(
        await driver.read({ address: usdc.address, abi: erc20, functionName: "balanceOf", args: [r.aToken] }),
      ).to.equal(400_000n * E6);
      await aaveRepay(driver, market, { user: BORROWER, asset: usdc.address, amount: 40_000n * E6 });
      await aaveWithdraw(driver, market, { user: SUPPLIER, asset: usdc.address, amount: 50_000n * E6 });
      expect(
        await driver.read({ address: usdc.address, abi: erc20, functionName: "balanceOf", args: [r.aToken] }),
      ).to.equal(390_000n * E6);
    });

    it("supplies and repays on another's behalf in one transaction each through Multicall3", async function () {
      const r = market.reserves[usdc.address.toLowerCase()];
      const total = (token: Address) =>
        driver.read<bigint>({ address: token, abi: erc20, functionName: "totalSupply" });
      const supplied = await total(r.aToken);
      const own = await driver.read<bigint>({
        address: r.aToken,
        abi: erc20,
        functionName: "balanceOf",
        args: [SUPPLIER],
      });
      const debt = await total(r.variableDebtToken);
      const sent = driver.transactions;
      await aaveViaMulticall(driver, market, {
        action: "supply",
        from: SUPPLIER,
        onBehalfOf: SUPPLIER,
        asset: usdc.address,
        amount: 25_000n * E6,
      });
      await aaveViaMulticall(driver, market, {
        action: "repay",
        from: BORROWER,
        onBehalfOf: BORROWER,
        asset: usdc.address,
        amount: 10_000n * E6,
      });
      expect(driver.transactions - sent).to.equal(2);
      // Interest accrues by the second between blocks: within a few base units.
      expect(await total(r.aToken)).to.be.closeTo(supplied + 25_000n * E6, 1_000n);
      expect(
        await driver.read<bigint>({ address: r.aToken, abi: erc20, functionName: "balanceOf", args: [SUPPLIER] }),
      ).to.be.closeTo(own + 25_000n * E6, 1_000n);
      expect(await total(r.variableDebtToken)).to.be.closeTo(debt - 10_000n * E6, 1_000n);
    });

    it("refuses a borrow beyond the collateral's loan-to-value (real Aave validation)", async function () {
      let error: unknown;
      try {
        // 100 WETH at $3,000 with 80 % LTV allows $240,000 in total; 60,000 USDC are already owed.
        await aaveBorrow(driver, market, { user: BORROWER, asset: usdc.address, amount: 200_000n * E6 });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(DemoChainError);
      // Aave's Errors.COLLATERAL_CANNOT_COVER_NEW_BORROW is the string '36'.
      expect((error as DemoChainError).details).to.match(/reverted with reason string '36'/);
    });
  });
});
