import { createPublicClient, defineChain, http, type PublicClient } from "viem";

/** One public client per configured chain (the pools' chains, read through `RPC_URL_<chainId>`). */
export function createChainClients(rpcUrls: Record<number, string>): { chainId: number; client: PublicClient }[] {
  return Object.entries(rpcUrls).map(([id, url]) => {
    const chainId = Number(id);
    const chain = defineChain({
      id: chainId,
      name: `chain ${chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    return {
      chainId,
      client: createPublicClient({ chain, transport: http(url, { retryCount: 2, timeout: 20_000 }) }),
    };
  });
}
