import {
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  numberToHex,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import type { EIP1193Provider } from "hardhat/types";
import { linkBytecode, type ContractArtifact } from "./artifacts";
import { DemoChainError } from "../errors/chain";

/** Gas limit sent with every transaction: fixed, so no `eth_estimateGas` round trip per transaction. */
const TX_GAS = 15_000_000;

export type CreateChainDriverParameters = {
  chainId: number;
  /** An EIP-1193 provider for a local chain whose genesis accounts are unlocked (see `startLocalChain`). */
  provider: EIP1193Provider;
};

/** Sends transactions from unlocked accounts of a local (automining) chain and reads results. */
export interface ChainDriver {
  chainId: number;
  /** Transactions sent so far through this driver. */
  readonly transactions: number;
  /** Deploys `artifact` (linked against `libraries`) and returns the new contract's address. */
  deploy(args: {
    from: Address;
    artifact: ContractArtifact;
    args?: readonly unknown[];
    libraries?: Record<string, Address>;
  }): Promise<Address>;
  /** Sends a contract call as a transaction; it is mined at once, and a revert throws. */
  write(args: {
    from: Address;
    address: Address;
    abi: Abi;
    functionName: string;
    args?: readonly unknown[];
    value?: bigint;
  }): Promise<Hex>;
  /** `eth_call` at the latest block, decoded. */
  read<T = unknown>(args: { address: Address; abi: Abi; functionName: string; args?: readonly unknown[] }): Promise<T>;
  /** Sends plain ether. */
  sendValue(args: { from: Address; to: Address; value: bigint }): Promise<Hex>;
  /** Timestamp and number of the latest block. */
  latestBlock(): Promise<{ number: bigint; timestamp: number }>;
  /** Sets the timestamp of the next block and mines it (an empty block). */
  mineAt(timestamp: number): Promise<void>;
  /** Sets the timestamp of the next block, which the next transaction mines. */
  nextBlockAt(timestamp: number): Promise<void>;
  /** Raw JSON-RPC request. */
  request(method: string, params?: unknown[]): Promise<unknown>;
}

export type CreateChainDriverReturnType = ChainDriver;
export type CreateChainDriverErrorType = DemoChainError;

/**
 * Wraps a local chain's provider for deploying and driving contracts from its unlocked genesis accounts.
 *
 * @param parameters - {@link CreateChainDriverParameters}
 * @returns A {@link ChainDriver}.
 *
 * @example
 * import { startLocalChain } from "./src/chain/startLocalChain";
 * import { createChainDriver } from "./src/chain/chainDriver";
 * const chain = await startLocalChain({ chainId: 1, genesisTime: 1_700_000_000 });
 * const driver = createChainDriver({ chainId: 1, provider: chain.provider });
 */
export function createChainDriver(parameters: CreateChainDriverParameters): CreateChainDriverReturnType {
  const { chainId, provider } = parameters;
  let transactions = 0;

  async function request(method: string, params: unknown[] = []): Promise<unknown> {
    try {
      return await provider.request({ method, params });
    } catch (error) {
      throw new DemoChainError(`chain ${chainId}: ${method} failed`, { cause: error as Error });
    }
  }

  async function sendTransaction(tx: { from: Address; to?: Address; data?: Hex; value?: bigint }): Promise<Hex> {
    transactions++;
    return (await request("eth_sendTransaction", [
      {
        from: tx.from,
        ...(tx.to ? { to: tx.to } : {}),
        ...(tx.data ? { data: tx.data } : {}),
        ...(tx.value ? { value: numberToHex(tx.value) } : {}),
        gas: numberToHex(TX_GAS),
      },
    ])) as Hex;
  }

  return {
    chainId,
    get transactions() {
      return transactions;
    },
    async deploy({ from, artifact, args = [], libraries = {} }) {
      const bytecode = linkBytecode(artifact, libraries);
      const data = encodeDeployData({ abi: artifact.abi, bytecode, args });
      const hash = await sendTransaction({ from, data });
      const receipt = (await request("eth_getTransactionReceipt", [hash])) as { contractAddress: Address | null };
      if (!receipt?.contractAddress) {
        throw new DemoChainError(`chain ${chainId}: deploying ${artifact.contractName} gave no contract address`);
      }
      return getAddress(receipt.contractAddress);
    },
    async write({ from, address, abi, functionName, args = [], value }) {
      const data = encodeFunctionData({ abi, functionName, args });
      return sendTransaction({ from, to: address, data, value });
    },
    async read<T>({
      address,
      abi,
      functionName,
      args = [],
    }: {
      address: Address;
      abi: Abi;
      functionName: string;
      args?: readonly unknown[];
    }) {
      const data = encodeFunctionData({ abi, functionName, args });
      const result = (await request("eth_call", [{ to: address, data }, "latest"])) as Hex;
      return decodeFunctionResult({ abi, functionName, data: result }) as T;
    },
    async sendValue({ from, to, value }) {
      return sendTransaction({ from, to, value });
    },
    async latestBlock() {
      const block = (await request("eth_getBlockByNumber", ["latest", false])) as { number: Hex; timestamp: Hex };
      return { number: BigInt(block.number), timestamp: Number(BigInt(block.timestamp)) };
    },
    async mineAt(timestamp) {
      await request("evm_setNextBlockTimestamp", [numberToHex(timestamp)]);
      await request("evm_mine", []);
    },
    async nextBlockAt(timestamp) {
      await request("evm_setNextBlockTimestamp", [numberToHex(timestamp)]);
    },
    request,
  };
}
