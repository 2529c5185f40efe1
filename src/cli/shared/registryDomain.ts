import { UsageError } from "../../errors/cli";
import type { CliIo } from "../types";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * The registry's EIP-712 domain for `attest digest` and `attest sign --v2`: address and chain from
 * `--registry`/`--chain`, else `REGISTRY_ADDRESS`/`REGISTRY_CHAIN_ID`. No connection: the chain is never asked.
 */
export function resolveRegistryDomain(
  values: { registry?: string; chain?: string },
  io: CliIo,
): { address: string; chainId: number } {
  const address = values.registry ?? io.env.REGISTRY_ADDRESS;
  const chain = values.chain ?? io.env.REGISTRY_CHAIN_ID;
  if (address === undefined || address === "")
    throw new UsageError("--registry <address> (or REGISTRY_ADDRESS) is required");
  if (!ADDRESS.test(address))
    throw new UsageError(`--registry must be 0x followed by 40 hex digits, got ${JSON.stringify(address)}`);
  if (chain === undefined || chain === "")
    throw new UsageError("--chain <registry chain id> (or REGISTRY_CHAIN_ID) is required");
  if (!DECIMAL.test(chain) || !Number.isSafeInteger(Number(chain)))
    throw new UsageError(`--chain must be a decimal chain id, got ${JSON.stringify(chain)}`);
  return { address, chainId: Number(chain) };
}
