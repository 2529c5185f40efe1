import type { AttesterInfo } from "../read/getAttesterInfo";
import type { ReadContext } from "../read/context";

/** What the MCP server is built from: the same readers' context and attester the REST API serves. */
export type McpDeps = {
  /** The store (read only), the freshness window and the clock: every tool calls the shared readers with it. */
  readContext: ReadContext;
  /** The expected signer (`getAttesterInfo`): `get_attester` serves it, `verify_attestation` checks against it. */
  attester: AttesterInfo;
  /** Told about an unexpected error that a tool answered as `INTERNAL_ERROR` (for the log; never the caller). */
  onInternalError?: (error: unknown, tool: string) => void;
};
