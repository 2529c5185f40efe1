import { getAddress, type Abi, type Address, type Hex } from "viem";
import { DemoChainError } from "../errors/chain";

/** ABI and creation bytecode of a contract shipped in an npm package (or compiled by Hardhat here). */
export interface ContractArtifact {
  contractName: string;
  abi: Abi;
  /** Creation bytecode with `0x`; may still contain `__$…$__` library placeholders (see `linkReferences`). */
  bytecode: Hex;
  /** Hardhat's link references: source → library → byte offsets (without `0x`) of 20-byte placeholders. */
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

/** Aave v3 contracts the demo deploys, by their path under `@aave/core-v3/artifacts/contracts/`. */
const AAVE_PATHS = {
  PoolAddressesProvider: "protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json",
  ACLManager: "protocol/configuration/ACLManager.sol/ACLManager.json",
  Pool: "protocol/pool/Pool.sol/Pool.json",
  PoolConfigurator: "protocol/pool/PoolConfigurator.sol/PoolConfigurator.json",
  DefaultReserveInterestRateStrategy:
    "protocol/pool/DefaultReserveInterestRateStrategy.sol/DefaultReserveInterestRateStrategy.json",
  AToken: "protocol/tokenization/AToken.sol/AToken.json",
  VariableDebtToken: "protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json",
  StableDebtToken: "protocol/tokenization/StableDebtToken.sol/StableDebtToken.json",
  PriceOracle: "mocks/oracle/PriceOracle.sol/PriceOracle.json",
  MintableERC20: "mocks/tokens/MintableERC20.sol/MintableERC20.json",
  SupplyLogic: "protocol/libraries/logic/SupplyLogic.sol/SupplyLogic.json",
  BorrowLogic: "protocol/libraries/logic/BorrowLogic.sol/BorrowLogic.json",
  LiquidationLogic: "protocol/libraries/logic/LiquidationLogic.sol/LiquidationLogic.json",
  EModeLogic: "protocol/libraries/logic/EModeLogic.sol/EModeLogic.json",
  BridgeLogic: "protocol/libraries/logic/BridgeLogic.sol/BridgeLogic.json",
  FlashLoanLogic: "protocol/libraries/logic/FlashLoanLogic.sol/FlashLoanLogic.json",
  PoolLogic: "protocol/libraries/logic/PoolLogic.sol/PoolLogic.json",
  ConfiguratorLogic: "protocol/libraries/logic/ConfiguratorLogic.sol/ConfiguratorLogic.json",
} as const;

export type AaveContractName = keyof typeof AAVE_PATHS;
export type UniswapV2ContractName = "UniswapV2Factory" | "UniswapV2Pair" | "ERC20";

const cache = new Map<string, ContractArtifact>();

/** Loads an Aave v3 artifact from `@aave/core-v3` (Hardhat format). */
export function aaveArtifact(name: AaveContractName): ContractArtifact {
  return cached(`aave:${name}`, () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- its path is built at run time
    const json = require(`@aave/core-v3/artifacts/contracts/${AAVE_PATHS[name]}`) as {
      abi: Abi;
      bytecode: Hex;
      linkReferences?: ContractArtifact["linkReferences"];
    };
    return { contractName: name, abi: json.abi, bytecode: json.bytecode, linkReferences: json.linkReferences ?? {} };
  });
}

/** Loads a Uniswap V2 build from `@uniswap/v2-core/build` (Waffle format: bytecode without `0x`). */
export function uniswapV2Artifact(name: UniswapV2ContractName): ContractArtifact {
  return cached(`uniswap:${name}`, () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- its path is built at run time
    const json = require(`@uniswap/v2-core/build/${name}.json`) as { abi: Abi; bytecode: string };
    const bytecode = (json.bytecode.startsWith("0x") ? json.bytecode : `0x${json.bytecode}`) as Hex;
    return { contractName: name, abi: json.abi, bytecode, linkReferences: {} };
  });
}

/** Loads a contract compiled by this repository's Hardhat (`npx hardhat compile`). */
export function hardhatArtifact(sourceName: string, contractName: string): ContractArtifact {
  return cached(`hardhat:${sourceName}:${contractName}`, () => {
    let json: { abi: Abi; bytecode: Hex; linkReferences?: ContractArtifact["linkReferences"] };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- its path is built at run time
      json = require(`../../artifacts/contracts/${sourceName}/${contractName}.json`) as typeof json;
    } catch (error) {
      throw new DemoChainError(`artifact ${sourceName}/${contractName} not found`, {
        cause: error as Error,
        metaMessages: ["Run `npx hardhat compile` first."],
      });
    }
    return { contractName, abi: json.abi, bytecode: json.bytecode, linkReferences: json.linkReferences ?? {} };
  });
}

/**
 * Replaces every library placeholder in `artifact.bytecode` with the deployed library's address.
 * Throws when a referenced library is missing from `libraries`.
 */
export function linkBytecode(artifact: ContractArtifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const [, libs] of Object.entries(artifact.linkReferences)) {
    for (const [libName, refs] of Object.entries(libs)) {
      const address = libraries[libName];
      if (address === undefined) {
        throw new DemoChainError(`${artifact.contractName} needs library ${libName}, which was not given`);
      }
      const hex = getAddress(address).slice(2).toLowerCase();
      for (const { start, length } of refs) {
        code = code.slice(0, start * 2) + hex + code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes("__$")) throw new DemoChainError(`${artifact.contractName} still has unlinked placeholders`);
  return `0x${code}`;
}

function cached(key: string, load: () => ContractArtifact): ContractArtifact {
  let artifact = cache.get(key);
  if (artifact === undefined) {
    artifact = load();
    cache.set(key, artifact);
  }
  return artifact;
}
