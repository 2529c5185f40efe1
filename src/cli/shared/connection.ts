import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Address,
  type Chain,
  type Transport,
} from "viem";

import type { RegistryPublicClient, RegistryWalletClient } from "@attestation-registry/sdk";
import { toRegistryError } from "@attestation-registry/sdk/internal";
import { UsageError } from "../../errors/cli";
import { parseAddressOption } from "./args";

/** The `--rpc` flag, else `RPC_URL`, checked to be an http(s) URL. */
export function resolveRpcUrl({ rpc, env }: { rpc?: string | undefined; env: NodeJS.ProcessEnv }): string {
  const url = rpc || env.RPC_URL;
  const from = rpc ? "--rpc" : "RPC_URL";
  if (!url) throw new UsageError("no RPC endpoint: pass --rpc <url> or set RPC_URL (e.g. http://127.0.0.1:8545)");
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  // Only HTTP: a WebSocket would keep a one-shot CLI process alive after its work is done.
  if (!parsed || !["http:", "https:"].includes(parsed.protocol)) {
    // Never echo a value that parses as a URL (it may carry an API key); a bare name like "mainnet" is safe to show.
    const shown = parsed ? `a ${parsed.protocol.replace(":", "")} URL` : `"${url.slice(0, 40)}"`;
    throw new UsageError(
      `${from} ${shown} is not an RPC URL: networks are not known by name, pass the node's http:// or https:// URL, e.g. http://127.0.0.1:8545`,
    );
  }
  return url;
}

/** The `--registry` flag, else `REGISTRY_ADDRESS`. */
export function resolveRegistry({ registry, env }: { registry?: string | undefined; env: NodeJS.ProcessEnv }): Address {
  const value = registry || env.REGISTRY_ADDRESS;
  if (!value) throw new UsageError("no registry: pass --registry <address> or set REGISTRY_ADDRESS");
  return parseAddressOption(registry ? "--registry" : "REGISTRY_ADDRESS", value);
}

/** Clients for the node at `url`; the chain is whatever the node reports (any network works). */
export async function connectRegistry({ url }: { url: string }): Promise<{
  publicClient: RegistryPublicClient;
  chain: Chain;
  transport: Transport;
}> {
  const transport: Transport = http(url, { retryCount: 1, timeout: 15_000 });
  const probe = createPublicClient({ transport });
  let chainId: number;
  try {
    chainId = await probe.getChainId();
  } catch (error) {
    throw toRegistryError(error, { url });
  }
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: {
      default: { http: [url] },
    },
  });
  const publicClient: RegistryPublicClient = createPublicClient({ chain, transport, pollingInterval: 1_000 });
  return { publicClient, chain, transport };
}

/** A wallet client for `account` on the connected chain. */
export function walletClientFor({
  account,
  chain,
  transport,
}: {
  account: Account;
  chain: Chain;
  transport: Transport;
}): RegistryWalletClient {
  return createWalletClient({ account, chain, transport });
}
