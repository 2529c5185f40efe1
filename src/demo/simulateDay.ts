import type { Address } from "viem";
import { aaveBorrow, aaveRepay, aaveSupply, aaveWithdraw } from "../chain/aaveV3";
import { aaveArtifact } from "../chain/artifacts";
import { addLiquidity, lpBalance, readPair, removeLiquidity, swapExactIn } from "../chain/uniswapV2";
import {
  BORROWER,
  SUPPLIER,
  TRADERS,
  fractionOf,
  lpTotalSupply,
  ratio,
  type ChainState,
  type ReserveState,
} from "./demoChainState";
import { CASH_FLOOR } from "./planDemoPool";

/**
 * The demo's scripted scenario: one simulated day on one chain. It reads best as one script, so it is the one
 * function allowed to run over the length limit (`test/architecture/layers.test.ts`).
 */

/** One day of activity on one chain: swaps, then every pool steered to the day's planned level. */
export async function simulateDay(state: ChainState, index: number): Promise<void> {
  const { driver, rng } = state;
  for (const pair of state.pairs) {
    // Swaps: 2–3 a day, 0.1–1.2 % of the input reserve each. The direction leans towards the reference
    // price (arbitrage against other venues), so prices wander but stay within a band.
    const swaps = rng.int(2, 3);
    for (let s = 0; s < swaps; s++) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const deviation = Math.log(ratio(reserve1, reserve0) / pair.referencePrice);
      const zeroForOne = rng.chance(Math.min(0.9, Math.max(0.1, 0.5 + 2 * deviation)));
      const reserveIn = zeroForOne ? reserve0 : reserve1;
      await swapExactIn(driver, {
        from: rng.pick(TRADERS),
        pair: pair.address,
        tokenIn: zeroForOne ? pair.token0 : pair.token1,
        amountIn: fractionOf(reserveIn, rng.between(0.001, 0.012)),
      });
    }
    // Liquidity: LPs add or remove to reach the day's planned LP supply.
    const supply = await lpTotalSupply(driver, pair.address);
    const target = fractionOf(pair.startLiquidity, pair.plan.liquidity[index]);
    if (target > supply) {
      const { reserve0, reserve1 } = await readPair(driver, pair.address);
      const amount0 = (reserve0 * (target - supply)) / supply;
      if (amount0 > 0n) {
        await addLiquidity(driver, {
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
      await aaveRepay(driver, state.market, {
        user: BORROWER,
        asset: asset(reserve),
        amount: borrowed - targetBorrowed,
      });
      borrowed = targetBorrowed;
    }
    if (targetSupplied > supplied) {
      await aaveSupply(driver, state.market, {
        user: SUPPLIER,
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
