import { aaveBorrow, aaveViaMulticall, aaveWithdraw } from "../chain/aaveV3";
import { aaveArtifact } from "../chain/artifacts";
import {
  addLiquidityViaMulticall,
  getReserves,
  lpBalance,
  readPair,
  removeLiquidity,
  swapViaMulticall,
} from "../chain/uniswapV2";
import {
  ARBITRAGEUR,
  BORROWER,
  SUPPLIER,
  TRADERS,
  fractionOf,
  lpTotalSupply,
  ratio,
  type ChainState,
  type ReserveState,
} from "./demoChainState";
import { planDaySwaps } from "./planDaySwaps";
import { CASH_FLOOR } from "./planDemoPool";

/**
 * The demo's scripted scenario: one simulated day on one chain. It reads best as one script, so it is the one
 * function allowed to run over the length limit (`test/architecture/layers.test.ts`).
 */

/** A price further than this (log distance) from a pair's starting price draws an arbitrage at its next swap. */
export const ARBITRAGE_BAND = 0.01;

/** Which day, and its window: swaps strictly between `from` and `to`, the pools steered at `to` (Unix seconds). */
export interface SimulatedDay {
  index: number;
  /** The chain's latest block time when the day starts. */
  from: number;
  /** The day's end: liquidity and lending are steered in blocks from this time on. */
  to: number;
}

/**
 * One day of activity on one chain: every pair's swaps at their times through the day ({@link planDaySwaps}), then at
 * the day's end every pool steered to the day's planned level (LPs, supplier, borrower).
 */
export async function simulateDay(state: ChainState, day: SimulatedDay): Promise<void> {
  const { driver, rng } = state;
  const { index } = day;
  // Swaps. A trader's trade goes either way, leaning towards the starting price; a price left more than
  // ARBITRAGE_BAND off it is brought back by an arbitrage at the pair's next swap, as arbitrage against other
  // venues would. Reserves are followed locally: nothing else touches a pair between its swaps.
  const { swaps } = planDaySwaps({ trading: state.pairs.map((p) => p.trading), rng, from: day.from, to: day.to });
  const reserves = await Promise.all(state.pairs.map((pair) => getReserves(driver, pair.address)));
  for (const swap of swaps) {
    const pair = state.pairs[swap.pair];
    const { reserve0, reserve1 } = reserves[swap.pair];
    const deviation = Math.log(ratio(reserve1, reserve0) / pair.referencePrice);
    const arbitrage = Math.abs(deviation) > ARBITRAGE_BAND;
    const zeroForOne = arbitrage ? deviation > 0 : swap.direction < Math.min(0.9, Math.max(0.1, 0.5 + 2 * deviation));
    const reserveIn = zeroForOne ? reserve0 : reserve1;
    // An arbitrage sells what brings the price back: reserveIn · (e^{|deviation|/2} − 1), fee aside.
    const amountIn = fractionOf(reserveIn, arbitrage ? Math.expm1(Math.abs(deviation) / 2) : swap.size);
    await driver.nextBlockAt(swap.at);
    const amountOut = await swapViaMulticall(driver, {
      from: arbitrage ? ARBITRAGEUR : rng.pick(TRADERS),
      pair: pair.address,
      token0: pair.token0,
      token1: pair.token1,
      zeroForOne,
      amountIn,
      reserve0,
      reserve1,
    });
    reserves[swap.pair] = zeroForOne
      ? { reserve0: reserve0 + amountIn, reserve1: reserve1 - amountOut }
      : { reserve0: reserve0 - amountOut, reserve1: reserve1 + amountIn };
  }
  const latest = await driver.latestBlock();
  await driver.mineAt(Math.max(day.to, latest.timestamp + 1));

  for (const pair of state.pairs) {
    // Liquidity: LPs add or remove to reach the day's planned LP supply.
    const supply = await lpTotalSupply(driver, pair.address);
    const target = fractionOf(pair.startLiquidity, pair.plan.liquidity[index]);
    if (target > supply) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const amount0 = (reserve0 * (target - supply)) / supply;
      if (amount0 > 0n) {
        await addLiquidityViaMulticall(driver, {
          from: rng.pick(pair.lps),
          pair: pair.address,
          token0: pair.token0,
          amount0,
          token1: pair.token1,
          amount1: (reserve1 * (target - supply)) / supply + 1n,
        });
      }
    } else if (target < supply) {
      // One LP removes a small amount; a large one (a whale leaving) comes from the largest holders first.
      const chosen = rng.pick(pair.lps);
      const chosenBalance = await lpBalance(driver, pair.address, chosen);
      const order =
        chosenBalance >= supply - target
          ? [{ lp: chosen, balance: chosenBalance }]
          : (
              await Promise.all(
                pair.lps.map(async (lp) => ({ lp, balance: await lpBalance(driver, pair.address, lp) })),
              )
            ).sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
      let remaining = supply - target;
      for (const { lp, balance } of order) {
        const liquidity = balance < remaining ? balance : remaining;
        if (liquidity > 0n) await removeLiquidity(driver, { from: lp, pair: pair.address, liquidity });
        remaining -= liquidity;
        if (remaining === 0n) break;
      }
    }
  }

  const erc20 = aaveArtifact("MintableERC20").abi;
  const asset = (reserve: ReserveState) => reserve.token.address;
  for (const reserve of state.reserves) {
    let supplied = await driver.read<bigint>({ address: reserve.aToken, abi: erc20, functionName: "totalSupply" });
    let borrowed = await driver.read<bigint>({
      address: reserve.variableDebtToken,
      abi: erc20,
      functionName: "totalSupply",
    });
    // The day's planned supply (the supplier's deposit drifting) and utilisation (the borrower's demand).
    const targetSupplied = fractionOf(reserve.startSupplied, reserve.plan.liquidity[index]);
    const targetBorrowed = fractionOf(targetSupplied, reserve.plan.utilization![index]);
    if (borrowed > targetBorrowed) {
      await aaveViaMulticall(driver, state.market, {
        action: "repay",
        from: BORROWER,
        onBehalfOf: BORROWER,
        asset: asset(reserve),
        amount: borrowed - targetBorrowed,
      });
      borrowed = targetBorrowed;
    }
    if (targetSupplied > supplied) {
      await aaveViaMulticall(driver, state.market, {
        action: "supply",
        from: SUPPLIER,
        onBehalfOf: SUPPLIER,
        asset: asset(reserve),
        amount: targetSupplied - supplied,
      });
      supplied = targetSupplied;
    } else if (supplied > targetSupplied) {
      const own = await driver.read<bigint>({
        address: reserve.aToken,
        abi: erc20,
        functionName: "balanceOf",
        args: [SUPPLIER],
      });
      let amount = supplied - targetSupplied;
      const cash = supplied - borrowed - fractionOf(supplied, CASH_FLOOR);
      if (amount > cash) amount = cash;
      if (amount > own) amount = own;
      if (amount > 0n) {
        await aaveWithdraw(driver, state.market, { user: SUPPLIER, asset: asset(reserve), amount });
        supplied -= amount;
      }
    }
    if (targetBorrowed > borrowed) {
      const room = supplied - borrowed - fractionOf(supplied, CASH_FLOOR);
      const amount = targetBorrowed - borrowed < room ? targetBorrowed - borrowed : room;
      if (amount > 0n) await aaveBorrow(driver, state.market, { user: BORROWER, asset: asset(reserve), amount });
    }
  }
}
