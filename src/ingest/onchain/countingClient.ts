import { createPublicClient, custom, type PublicClient } from "viem";

/**
 * Wraps a caller's client so that every JSON-RPC request it sends is counted, whatever the caller's transport does
 * (its own retries stay inside one counted request).
 *
 * @returns the counting client and a function reading the count so far.
 */
export function countingClient(client: PublicClient): { counted: PublicClient; requests: () => number } {
  let rpcRequests = 0;
  const counted = createPublicClient({
    chain: client.chain,
    transport: custom(
      {
        request: (args: { method: string; params?: unknown }) => {
          rpcRequests++;
          return client.request(args as never);
        },
      },
      { retryCount: 0 },
    ),
  });
  return { counted: counted as PublicClient, requests: () => rpcRequests };
}
