import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AttesterSchema } from "../../read/schemas/attester";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { PIN_ATTESTER } from "../../read/sentences";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";

/** `get_attester`: the expected signer, and the registry if any (`GET /api/v1/attester`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "get_attester",
    {
      title: "Get the attester (the expected signer)",
      description: [
        "The address (EIP-55) that signs every attestation this service serves, the signing scheme (eip191-v1: a",
        "personal_sign over the canonical message), and the AttestationRegistry (chain id and address) its v2 EIP-712",
        `blocks are bound to (\`registry\`), or null when none is configured. ${PIN_ATTESTER} Taking the address from this`,
        "service is weaker than having it from the operator beforehand: record it once and compare it on later calls.",
        "The same JSON as GET /api/v1/attester.",
      ].join(" "),
      outputSchema: sameJsonAs(AttesterSchema, "GET /api/v1/attester"),
      annotations: { title: "Get the attester", ...READ_ONLY },
    },
    async () => answer("get_attester", deps, () => deps.attester),
  );
}
