import http from "node:http";
import type { AddressInfo } from "node:net";
import type { EIP1193Provider } from "hardhat/types";
import { keccak256, stringToHex, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { LocalChainError } from "../errors/chain";

/** How many funded accounts every local chain starts with. */
export const LOCAL_CHAIN_ACCOUNT_COUNT = 10;

/** Balance of each genesis account: 10^9 ether, so gas and bonds never run out in a demo. */
export const LOCAL_CHAIN_ACCOUNT_BALANCE = 10n ** 27n;

/**
 * The funded genesis accounts of every local chain, derived from fixed labels so the demo is the same
 * on every start. IMPORTANT: these keys are public knowledge; never use them outside a local chain.
 */
export const LOCAL_CHAIN_ACCOUNTS: readonly { privateKey: Hex; address: Address }[] = Array.from(
  { length: LOCAL_CHAIN_ACCOUNT_COUNT },
  (_, i) => {
    const privateKey = keccak256(stringToHex(`attestation-demo local chain account ${i}`));
    return { privateKey, address: privateKeyToAddress(privateKey) };
  },
);

export type StartLocalChainParameters = {
  /** EIP-155 chain id the chain reports (`eth_chainId`). */
  chainId: number;
  /** Timestamp of the genesis block, Unix seconds (may be in the past). */
  genesisTime: number;
  /** Loopback port to listen on; 0 or omitted picks a free one. */
  port?: number;
  /** Receives one readable line per lifecycle event (start, stop). */
  log?: (line: string) => void;
};

/** A running local chain: an in-process EDR (Hardhat Network) provider behind a loopback JSON-RPC server. */
export interface LocalChain {
  chainId: number;
  /** `http://127.0.0.1:<port>`: JSON-RPC over HTTP. */
  rpcUrl: string;
  /** The same chain without the HTTP hop, for in-process drivers (the demo's activity). */
  provider: EIP1193Provider;
  /** Milliseconds from call to the first answered `eth_chainId`. */
  startMs: number;
  /** Closes the HTTP server. The provider lives in this process; nothing else is left behind. */
  stop(): Promise<void>;
}

export type StartLocalChainReturnType = LocalChain;
export type StartLocalChainErrorType = LocalChainError;

/**
 * Starts a local EVM chain (Hardhat Network's EDR engine, in process) with the given chain id and
 * genesis time, funded with {@link LOCAL_CHAIN_ACCOUNTS}, and serves it on a loopback port.
 *
 * Hardhat 2 runs one network per `hardhat node` process; creating EDR providers directly gives any
 * number of chains in one process, each started in well under a second.
 *
 * @param parameters - {@link StartLocalChainParameters}
 * @returns A {@link LocalChain}; call `stop()` when done.
 *
 * @example
 * import { startLocalChain } from "./src/chain/startLocalChain";
 * const chain = await startLocalChain({ chainId: 8453, genesisTime: Math.floor(Date.now() / 1000) - 86400 });
 * // … use chain.rpcUrl …
 * await chain.stop();
 */
export async function startLocalChain(parameters: StartLocalChainParameters): Promise<StartLocalChainReturnType> {
  const { chainId, genesisTime, port = 0, log } = parameters;
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new LocalChainError(`chainId must be a positive integer, got ${String(chainId)}`);
  }
  if (!Number.isSafeInteger(genesisTime) || genesisTime <= 0) {
    throw new LocalChainError(`genesisTime must be positive Unix seconds, got ${String(genesisTime)}`);
  }
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) {
    throw new LocalChainError(`port must be 0..65535, got ${String(port)}`);
  }
  const started = Date.now();
  // Hardhat's internals are loaded lazily: they are large and only the demo needs them.
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded lazily, only when the demo chain starts */
  const { createHardhatNetworkProvider } =
    require("hardhat/internal/hardhat-network/provider/provider") as typeof import("hardhat/internal/hardhat-network/provider/provider");
  const { defaultHardhatNetworkParams } =
    require("hardhat/internal/core/config/default-config") as typeof import("hardhat/internal/core/config/default-config");
  const { JsonRpcHandler } =
    require("hardhat/internal/hardhat-network/jsonrpc/handler") as typeof import("hardhat/internal/hardhat-network/jsonrpc/handler");
  /* eslint-enable @typescript-eslint/no-require-imports */

  const provider = await createHardhatNetworkProvider(
    {
      hardfork: "cancun",
      chainId,
      networkId: chainId,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: "priority",
      chains: defaultHardhatNetworkParams.chains,
      genesisAccounts: LOCAL_CHAIN_ACCOUNTS.map((a) => ({
        privateKey: a.privateKey,
        balance: LOCAL_CHAIN_ACCOUNT_BALANCE.toString(),
      })),
      // Aave's and Uniswap's contracts fit under 24 KiB; the limit is lifted so larger test contracts can be deployed too.
      allowUnlimitedContractSize: true,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      initialDate: new Date(genesisTime * 1000),
      enableTransientStorage: true,
      enableRip7212: false,
    },
    { enabled: false },
  );

  // Hardhat's own JSON-RPC handler (what `hardhat node` serves), on a server whose errors we can catch.
  const handler = new JsonRpcHandler(provider);
  const server = http.createServer((req, res) => void handler.handleHttp(req, res));
  let address: AddressInfo;
  try {
    address = await new Promise<AddressInfo>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve(server.address() as AddressInfo);
      });
    });
  } catch (error) {
    throw new LocalChainError(`could not listen on 127.0.0.1:${port}`, { cause: error as Error });
  }
  const rpcUrl = `http://127.0.0.1:${address.port}`;
  const reported = await waitForRpc(rpcUrl);
  if (reported !== chainId) {
    await closeServer(server);
    throw new LocalChainError(`chain answered eth_chainId ${reported}, expected ${chainId}`);
  }
  const startMs = Date.now() - started;
  log?.(`chain ${chainId}: listening on ${rpcUrl} (started in ${startMs} ms)`);

  let stopped = false;
  return {
    chainId,
    rpcUrl,
    provider,
    startMs,
    async stop() {
      if (stopped) return;
      stopped = true;
      await closeServer(server);
      log?.(`chain ${chainId}: stopped`);
    },
  };
}

/** Closes the server and every open connection. */
function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Stopping means stopping: drop keep-alive and in-flight connections too.
    server.closeAllConnections();
  });
}

/** Polls `eth_chainId` over HTTP until the server answers (a few tries; it is in process). */
async function waitForRpc(rpcUrl: string): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const body = (await response.json()) as { result?: string };
      if (typeof body.result === "string") return Number(BigInt(body.result));
      lastError = new Error(JSON.stringify(body));
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new LocalChainError(`RPC at ${rpcUrl} did not answer: ${(lastError as Error)?.message ?? "unknown"}`);
}
