import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CLAIM_FLOOR, CLAIM_TARGET } from "../attest/issueAttestations";
import { DEFAULT_CANDIDATES, ISSUING_MODEL } from "../model/horizon";
import type { McpDeps } from "./deps";
import { UNITS, freshnessRule } from "../read/sentences";

/** URIs of the read-only resources. */
export const RESOURCE_URIS = { attester: "attest://attester", claim: "attest://claim" } as const;

/**
 * The claim an attestation makes and how to check it, for a model to read before it trusts one
 * (docs/data.md#the-horizon-model; the model's defaults come from the code that issues, so the text cannot drift from
 * it).
 */
export function claimStatement(deps: McpDeps): string {
  const { attester, registry } = deps.attester;
  return [
    "# The claim behind an attestation",
    "",
    `An attestation claims: this pool's depth stays at or above floor × depthAtIssuanceUsd for horizonDays days (floor ${CLAIM_FLOOR} by default; each attestation's \`claim\` member states its own floor, threshold in USD, model and the time its window closes, \`settlesAt\`).`,
    `The model (${ISSUING_MODEL.id}): for candidate horizons of ${DEFAULT_CANDIDATES.join(", ")} days, the past windows of that length in the pool's history of daily lowest depth; the confidence is ${ISSUING_MODEL.rule}. The longest horizon whose confidence is at least ${CLAIM_TARGET} is published, its confidence rounded down to hundredths as \`confidence\`. Known ends of incentive campaigns may shorten it; with too little history there is no attestation (NO_ATTESTATION says why). How often such claims held in the past: get_model_evaluation.`,
    'Nothing grades a claim: `outcome` is always "pending". `evidence` shows the lowest depth observed inside the window so far; it settles nothing.',
    "",
    "## What is signed",
    "",
    'v1 (EIP-191, personal_sign) signs a canonical JSON message: exactly the keys chainId, confidence, expiresAt, horizonDays, issuedAt, pool, v, in that order, every value a string, no whitespace; confidence with two fraction digits, pool lower case, v "1". The attestation\'s expiry and horizon fields are signed as expiresAt and horizonDays. Nothing else in the payload is signed.',
    registry === null
      ? "No AttestationRegistry is configured: attestations carry no v2 block."
      : `v2 (EIP-712) signs the same claim for the AttestationRegistry ${registry.address} on chain ${registry.chainId}; its \`eip712\` block carries the typed data and signature, which a contract checks with registry.verify.`,
    "",
    "## How to verify",
    "",
    `1. Pin the expected signer. This service's attester is ${attester}; confirm it with the operator and keep it. Never use the attestation's own \`attester\` field.`,
    "2. Rebuild the canonical message from the seven signed fields, recover the EIP-191 signer (strict: 65 bytes, low s, v 27 or 28) and compare it with the pinned address, case-insensitively.",
    "3. Check expiry > now: an expired attestation can be authentic and still be out of date.",
    "The tool verify_attestation does steps 2 and 3 against this service's attester; offline, `npx attest verify --attester <pinned> --pool <id> --url <service>` or the library's verifyAttestation do the same without trusting the service.",
    "",
    "## Freshness",
    "",
    `${freshnessRule(deps.readContext.freshnessWindowS)} ${UNITS}`,
  ].join("\n");
}

/** Registers the read-only resources: the attester (the body of `GET /api/v1/attester`) and the claim statement. */
export function registerResources(server: McpServer, deps: McpDeps): void {
  server.registerResource(
    "attester",
    RESOURCE_URIS.attester,
    {
      title: "The attester (expected signer)",
      description: "The same JSON as GET /api/v1/attester and the tool get_attester: the address to pin.",
      mimeType: "application/json",
    },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(deps.attester) }],
    }),
  );
  server.registerResource(
    "claim",
    RESOURCE_URIS.claim,
    {
      title: "The claim behind an attestation, and how to verify it",
      description: "What an attestation claims, what is signed, how to verify it against a pinned attester, freshness.",
      mimeType: "text/markdown",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: claimStatement(deps) }] }),
  );
}
