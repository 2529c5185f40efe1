import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { parseAttestationText } from "../../read/parseAttestationText";
import { verifyAgainstAttester } from "../../read/verifyAgainstAttester";
import { VerifySchema } from "../../read/schemas/verify";
import type { McpDeps } from "../deps";
import { answer } from "../internal/answer";
import { PIN_ATTESTER } from "../../read/sentences";
import { READ_ONLY, sameJsonAs } from "../internal/descriptions";
import * as z from "zod/v4";

/** `verify_attestation`: checks an attestation against the service's attester (`POST /api/v1/verify`). */
export function registerTool(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    "verify_attestation",
    {
      title: "Verify an attestation against this service's attester",
      description: [
        "Checks an attestation as get_attestation returned it (the object, or its JSON text): rebuilds the canonical",
        "message from the seven signed fields, recovers the EIP-191 signer under strict rules (low-s, v 27/28) and",
        `compares it with this service's attester (${deps.attester.attester}). \`valid\` and \`expired\` are`,
        "independent: an expired attestation can be authentic, and a valid one is only as good as the attester you",
        `trust. A convenience, not an authority: the same check runs offline. ${PIN_ATTESTER}`,
        "A malformed attestation (a signed field missing or invalid) is INVALID_ATTESTATION naming the field; JSON text",
        "that does not parse (or repeats a member) is INVALID_JSON. A malformed or foreign signature is not an error:",
        "valid false. The same JSON as POST /api/v1/verify.",
      ].join(" "),
      inputSchema: {
        attestation: z.unknown().meta({
          description:
            "the attestation exactly as get_attestation (or GET /api/v1/pool/{pool}) returned it: chainId, " +
            "confidence, expiry, horizon, issuedAt, pool, signature (other members are ignored); an object or its JSON text",
          type: ["object", "string"],
        }),
      },
      outputSchema: sameJsonAs(VerifySchema, "POST /api/v1/verify"),
      annotations: { title: "Verify an attestation", ...READ_ONLY },
    },
    async ({ attestation }) =>
      answer("verify_attestation", deps, () =>
        verifyAgainstAttester({
          attestation: typeof attestation === "string" ? parseAttestationText({ text: attestation }) : attestation,
          attester: deps.attester.attester,
        }),
      ),
  );
}
