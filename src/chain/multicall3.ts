import path from "node:path";
import { encodeFunctionData, multicall3Abi, type Abi, type Address, type Hex } from "viem";
import type { ChainDriver } from "./chainDriver";
import { DemoChainError } from "../errors/chain";
import { MULTICALL3_ADDRESS } from "./multicall3Address";

/**
 * Places Multicall3 at its canonical address on a local chain: deploys viem's copy of its creation code,
 * then copies the runtime code to {@link MULTICALL3_ADDRESS} with `hardhat_setCode`.
 *
 * viem keeps that creation code (used for its deployless multicall) in `constants/contracts`, which its
 * package exports do not list, so it is loaded by file path from the installed, exactly pinned viem.
 */
export async function deployMulticall3(driver: ChainDriver, from: Address): Promise<Address> {
  let bytecode: Hex;
  try {
    const file = path.join(path.dirname(require.resolve("viem")), "constants", "contracts.js");
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file viem's exports do not list
    bytecode = (require(file) as { multicall3Bytecode: Hex }).multicall3Bytecode;
  } catch (error) {
    throw new DemoChainError("could not load Multicall3's bytecode from viem", { cause: error as Error });
  }
  const deployed = await driver.deploy({
    from,
    artifact: { contractName: "Multicall3", abi: [], bytecode, linkReferences: {} },
  });
  const code = (await driver.request("eth_getCode", [deployed, "latest"])) as Hex;
  await driver.request("hardhat_setCode", [MULTICALL3_ADDRESS, code]);
  return MULTICALL3_ADDRESS;
}

/** One call of a {@link multicallWrite} batch. */
export interface BatchCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

/**
 * Sends several contract calls as ONE transaction from `from`, through Multicall3's `aggregate3` at its canonical
 * address (deploy it first with {@link deployMulticall3}). Every call must succeed, else the whole transaction
 * reverts. Inside the batch, `msg.sender` is Multicall3, as a router's is in a real swap or deposit: the demo uses it
 * where a user would go through a router, which v2-core does not ship.
 *
 * @example
 * await multicallWrite(driver, trader, [
 *   { address: usdc, abi: erc20, functionName: "mint", args: [pair, amountIn] },
 *   { address: pair, abi: pairAbi, functionName: "swap", args: [amountOut, 0n, trader, "0x"] },
 * ]);
 */
export async function multicallWrite(driver: ChainDriver, from: Address, calls: readonly BatchCall[]): Promise<Hex> {
  return driver.write({
    from,
    address: MULTICALL3_ADDRESS,
    abi: multicall3Abi,
    functionName: "aggregate3",
    args: [
      calls.map((call) => ({
        target: call.address,
        allowFailure: false,
        callData: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args ?? [] }),
      })),
    ],
  });
}
