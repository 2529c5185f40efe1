import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getPoolAttestation } from "../../read/getPoolAttestation";
import { AttestationSchema } from "../../read/schemas/attestation";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { PIN_ATTESTER, READ_ONLY, UNITS, sameJsonAs } from "../internal/descriptions";
import { poolInput, toText } from "../internal/inputs";

/** `get_attestation`: a pool's latest pre-signed attestation, exactly as `GET /api/v1/pool/{pool}` serves it. */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_attestation",
    {
      title: "Get a pool's signed attestation",
      description: [
        "The latest signed attestation of one pool, exactly as the service stored it (it never re-signs). Signed",
        "(EIP-191 over a canonical JSON message): chainId, confidence (0 to 1, two decimals), expiry and issuedAt (Unix",
        "seconds), horizon (days), pool (lower-case address); `signature` is 65 bytes hex. Not signed: symbol,",
        "protocol, attester (informational only), outcome (always pending), the optional eip712 block (v2, for the",
        "on-chain AttestationRegistry), the claim (depth stays at or above floor × depthAtIssuanceUsd for `horizon`",
        `days) and the evidence observed inside the claim's window so far. ${UNITS} ${PIN_ATTESTER}`,
        "Pass the whole object to verify_attestation, or verify it offline (`npx attest verify --attester <pinned>`).",
        "Errors: INVALID_POOL_ID, POOL_NOT_FOUND, AMBIGUOUS_POOL (a bare address on several chains: name the chain),",
        "NO_ATTESTATION (with the reason). The same JSON as GET /api/v1/pool/{pool}.",
      ].join(" "),
      inputSchema: {
        pool: poolInput(),
      },
      outputSchema: sameJsonAs(AttestationSchema, "GET /api/v1/pool/{pool}"),
      annotations: { title: "Get a pool's signed attestation", ...READ_ONLY },
    },
    async ({ pool }) =>
      answer("get_attestation", deps, () => getPoolAttestation(deps.readContext, { id: toText(pool) })),
  );
}
