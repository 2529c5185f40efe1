import { createPublicClient, custom, HttpRequestError, RpcRequestError, TimeoutError, type PublicClient } from "viem";
import { getHttpRpcClient } from "viem/utils";

/** One call of a JSON-RPC batch. */
export interface RpcCall {
  method: string;
  params: unknown[];
}

/** The answer to one call of a batch: its result, or its error (a viem `RpcRequestError` with the provider's code). */
export type RpcCallResult = { result: unknown } | { error: Error };

/** Sends calls as ONE JSON-RPC batch (one HTTP request, so one endpoint answers them all), answers in call order. */
export type RpcBatch = (calls: readonly RpcCall[]) => Promise<RpcCallResult[]>;

/**
 * Wraps a caller's client so that every JSON-RPC request it sends is counted, whatever the caller's transport does
 * (its own retries stay inside one counted request). When the caller's transport is HTTP, `batch` sends calls as one
 * real JSON-RPC batch to the same URL (each call counted); other transports (a custom EIP-1193 provider) have none.
 *
 * @returns the counting client, a function reading the count so far, and the batch sender where there is one.
 */
export function countingClient(client: PublicClient): {
  counted: PublicClient;
  requests: () => number;
  batch: RpcBatch | undefined;
} {
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
  const transport = client.transport as { type?: unknown; url?: unknown; fetchOptions?: unknown; timeout?: unknown };
  const url = transport.type === "http" && typeof transport.url === "string" ? transport.url : undefined;
  const batch: RpcBatch | undefined =
    url === undefined
      ? undefined
      : async (calls) => {
          rpcRequests += calls.length;
          const http = getHttpRpcClient(url, {
            timeout: typeof transport.timeout === "number" ? transport.timeout : 20_000,
            ...(transport.fetchOptions ? { fetchOptions: transport.fetchOptions } : {}),
          });
          const body = calls.map((call, id) => ({
            jsonrpc: "2.0" as const,
            id,
            method: call.method,
            params: call.params,
          }));
          const responses = (await withTransportRetries(() => http.request({ body }))) as {
            id?: unknown;
            result?: unknown;
            error?: unknown;
          }[];
          return body.map((request, i): RpcCallResult => {
            // A server refusing the whole batch answers one error (no id) for every call.
            const response =
              responses.find((r) => r.id === request.id) ?? (responses[i]?.error ? responses[i] : undefined);
            if (response === undefined)
              return { error: new Error(`the batch's answer has no response to ${request.method}`) };
            if (response.error !== undefined && response.error !== null) {
              const error = response.error as { code: number; message: string; data?: unknown };
              return { error: new RpcRequestError({ body: request, error, url }) };
            }
            return { result: response.result };
          });
        };
  return { counted, requests: () => rpcRequests, batch };
}

/** Retries of a batch whose transport failed, as the chains' HTTP clients retry a single request (`retryCount: 2`). */
const BATCH_RETRIES = 2;

/**
 * `send`, again after 150 ms and 300 ms when the transport failed (a network error, a timeout, HTTP 5xx), as viem's
 * HTTP transport retries a single request. A provider's JSON-RPC error and HTTP 4xx (429 included: a rate limit is
 * reported, not hammered) are not retried.
 */
async function withTransportRetries<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const status = error instanceof HttpRequestError ? error.status : undefined;
      const transient =
        error instanceof TimeoutError || (error instanceof HttpRequestError && (status === undefined || status >= 500));
      if (!transient || attempt >= BATCH_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150 * 2 ** attempt));
    }
  }
}
