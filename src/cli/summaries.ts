/**
 * One line per `attest` subcommand, in the order `attest --help` lists them. Kept apart from the commands so that
 * `attest --help` prints the list without loading any command module (and so viem, the store or the chain actions):
 * each command's own `summary` is its entry here.
 */
export const COMMAND_SUMMARIES = {
  verify: "verify a v1 attestation (or an NDJSON batch, on all cores) offline against a pinned (or served) attester",
  digest: "print the v2 (EIP-712) digest of an attestation for a registry",
  sign: "sign an attestation (v1 EIP-191, or --v2 EIP-712 for a registry)",
  register: "register the attester key on the registry with a bond",
  bond: "add ETH to an attester's bond (anyone may pay)",
  unbond: "start unbonding the attester's bond (it backs nothing from then on)",
  withdraw: "after the unbonding period, send the whole bond to the beneficiary",
  revoke: "revoke one or more of the attester's own EIP-712 digests",
  status: "show an attester's bond, unbonding state and whether it backs attestations (no key needed)",
  migrate: "apply the store's pending schema migrations (a deploy step; DATABASE_URL or DATA_DIR)",
  keys: "list the configured API keys in the store, or revoke one (API_KEYS only adds)",
  model: "evaluate: the walk-forward model evaluation on daily lows from NDJSON (no store, no network)",
  grade: "recompute the accuracy record from a service's public history and signed claims (trusting none of it)",
  mcp: "serve the MCP tools over stdio from the service's store, read-only (for an agent's MCP client)",
} as const;

/** The name of a subcommand: `attest <name>`. */
export type CommandName = keyof typeof COMMAND_SUMMARIES;
