import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of starting the process (`src/main`, and the demo it may start). */

export type StartupAbortedErrorType = StartupAbortedError & { name: "StartupAbortedError" };

/** Startup was aborted by the caller's signal (Ctrl-C while starting); everything started so far has been stopped. */
export class StartupAbortedError extends BaseError {
  override name = "StartupAbortedError";
  constructor() {
    super("startup aborted", { code: "STARTUP_ABORTED", docsPath: "docs/service.md#run-it" });
  }
}

export type RpcUnreachableAtStartErrorType = RpcUnreachableAtStartError & { name: "RpcUnreachableAtStartError" };

/**
 * An `RPC_URL_<id>` did not answer `eth_chainId` at start, so the start cannot tell it serves chain `<id>`
 * (docs/operations.md#start-up-checks). The start stops (exit 1): a restart retries. The URL is shown as scheme, host
 * and port only.
 */
export class RpcUnreachableAtStartError extends BaseError {
  readonly variable: string;
  constructor({ variable, endpoint, cause }: { variable: string; endpoint: string; cause?: unknown }) {
    const reason = cause instanceof Error ? ((cause as { shortMessage?: string }).shortMessage ?? cause.message) : "";
    super(
      `${variable} (${endpoint}) did not answer eth_chainId: ${String(reason).split("\n")[0]}${socketCode(cause)}`,
      {
        code: "RPC_UNREACHABLE_AT_START",
        docsPath: "docs/operations.md#start-up-checks",
        cause: cause instanceof Error ? cause : undefined,
        name: "RpcUnreachableAtStartError",
      },
    );
    this.variable = variable;
  }
}

/** ` (ECONNREFUSED)` when a cause down the chain carries a socket error code (viem's own line does not name it). */
function socketCode(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return ` (${code})`;
    current = current.cause;
  }
  return "";
}
