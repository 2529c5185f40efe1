import { formatEther, type Hash } from "viem";

import type { AttesterState } from "@attestation-registry/sdk";
import { formatDuration, formatIsoTime } from "@attestation-registry/sdk/errors";
import type { CliIo } from "../types";

/** The state as JSON-safe values: wei as decimal strings (plus ether), times as Unix-second numbers. */
export function statusToJson(state: AttesterState): Record<string, unknown> {
  return {
    attester: state.attester,
    registry: state.registry,
    blockNumber: Number(state.blockNumber),
    timestamp: Number(state.timestamp),
    registered: state.registered,
    unbonding: state.unbonding,
    active: state.active,
    withdrawable: state.withdrawable,
    withdrawableAt: state.withdrawableAt === null ? null : Number(state.withdrawableAt),
    hasRevoked: state.hasRevoked,
    bond: state.bond.toString(),
    bondEth: formatEther(state.bond),
    beneficiary: state.beneficiary,
    minBond: state.minBond.toString(),
    minBondEth: formatEther(state.minBond),
    unbondingPeriod: Number(state.unbondingPeriod),
  };
}

/** One phrase for the attester's situation and what the operator can do next. */
export function describeStatus(state: AttesterState): string {
  if (state.active) return "active: signatures by this key verify on chain";
  if (state.withdrawableAt !== null) {
    if (state.withdrawable) return `unbonding: the bond is withdrawable now ("attest withdraw")`;
    return `unbonding: backs nothing; the bond is withdrawable at ${formatIsoTime(state.withdrawableAt)} (in ${formatDuration(state.withdrawableAt - state.timestamp)})`;
  }
  if (state.registered) {
    return `registered but not active: bond ${formatEther(state.bond)} ETH is below the minimum ${formatEther(state.minBond)} ETH ("attest bond --amount <eth>")`;
  }
  return `not registered ("attest register --bond <eth>")`;
}

/**
 * Prints a command's result: by default readable `key  value` lines; with `json`, exactly one JSON line
 * `{"command", "hash"?, "state", …extra}` (the format scripts should parse).
 */
export function printResult({
  io,
  command,
  hash,
  state,
  json,
  extra = {},
}: {
  io: CliIo;
  command: string;
  hash?: Hash | undefined;
  state: AttesterState;
  json: boolean;
  extra?: Record<string, unknown>;
}): void {
  if (json) {
    io.stdout(JSON.stringify({ command, ...(hash ? { hash } : {}), ...extra, state: statusToJson(state) }));
    return;
  }
  const lines: [string, string][] = [];
  if (hash) lines.push(["transaction", `${hash} (block ${state.blockNumber})`]);
  for (const [key, value] of Object.entries(extra))
    lines.push([key, Array.isArray(value) ? value.join(" ") : String(value)]);
  lines.push(
    ["attester", state.attester],
    ["status", describeStatus(state)],
    ["bond", `${formatEther(state.bond)} ETH (minimum ${formatEther(state.minBond)} ETH)`],
  );
  if (state.registered || state.unbonding) lines.push(["beneficiary", state.beneficiary]);
  lines.push(
    ["revoked any", state.hasRevoked ? "yes" : "no"],
    ["registry", `${state.registry} (unbonding period ${formatDuration(state.unbondingPeriod)})`],
    ["chain time", `${formatIsoTime(state.timestamp)} (block ${state.blockNumber})`],
  );
  for (const [key, value] of lines) io.stdout(`${key.padEnd(12)}${value}`);
}
