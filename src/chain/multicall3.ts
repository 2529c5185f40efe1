import path from "node:path";
import type { Address, Hex } from "viem";
import type { ChainDriver } from "./chainDriver";
import { DemoChainError } from "../errors/chain";
import { MULTICALL3_ADDRESS } from "../abi/multicall3";

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
    // eslint-disable-next-line @typescript-eslint/no-require-imports
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
