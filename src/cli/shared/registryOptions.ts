import type { Address, Chain, LocalAccount, Transport } from "viem";

import type { RegistryPublicClient, RegistryWalletClient } from "@attestation-registry/sdk";
import type { CliIo } from "../types";
import { loadAttesterAccount } from "./account";
import { connectRegistry, resolveRegistry, resolveRpcUrl, walletClientFor } from "./connection";

/** Options every registry command takes. */
export const registryOptions = {
  rpc: { type: "string" },
  registry: { type: "string" },
  "key-file": { type: "string" },
  json: { type: "boolean" },
} as const;

/** The usage text of `registryOptions`. */
export const registryOptionsUsage = "[--rpc <url>] [--registry <address>] [--key-file <path>] [--json]";

type RegistryOptionValues = { rpc?: string; registry?: string; "key-file"?: string; json?: boolean };

/**
 * Everything a write command needs, checked in this order so that usage errors come before any network call:
 * RPC URL, registry address, key, then the connection (chain id).
 */
export async function openRegistryForWrite(
  values: RegistryOptionValues,
  io: CliIo,
): Promise<{
  publicClient: RegistryPublicClient;
  walletClient: RegistryWalletClient;
  registry: Address;
  account: LocalAccount;
}> {
  const url = resolveRpcUrl({ rpc: values.rpc, env: io.env });
  const registry = resolveRegistry({ registry: values.registry, env: io.env });
  const account = loadAttesterAccount({ keyFile: values["key-file"], env: io.env });
  const { publicClient, chain, transport } = await connectRegistry({ url });
  return { publicClient, walletClient: walletClientFor({ account, chain, transport }), registry, account };
}

/** A read-only connection (no key needed). */
export async function openRegistryForRead(
  values: RegistryOptionValues,
  io: CliIo,
): Promise<{ publicClient: RegistryPublicClient; registry: Address; chain: Chain; transport: Transport }> {
  const url = resolveRpcUrl({ rpc: values.rpc, env: io.env });
  const registry = resolveRegistry({ registry: values.registry, env: io.env });
  const { publicClient, chain, transport } = await connectRegistry({ url });
  return { publicClient, registry, chain, transport };
}
