import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { loadConfig, type ServiceConfig } from "../../config/loadConfig";
import { UsageError } from "../../errors/cli";
import { errorLine } from "@attestation-registry/sdk/errors";
import { serveStdio } from "../../mcp/serveStdio";
import { findAttestedRegistry } from "../../read/findAttestedRegistry";
import { getAttesterInfo } from "../../read/getAttesterInfo";
import { openStore } from "../../storage/openStore";
import { parseAddressOption, parseCommandArgs } from "../shared/args";
import { loadPrivateKey } from "../shared/keys";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

/** The dev key the service creates in DATA_DIR on its first start (`src/main/attesterKey.ts`, DEV_KEY_FILE). */
export const DEV_KEY_FILE = "attester.key";

/**
 * The expected signer, as the service finds its key (`src/main/attesterKey.ts`) but never creating one: from
 * `ATTESTER_PRIVATE_KEY`, `ATTESTER_KEY_FILE`, or the dev key in `DATA_DIR`. Only the address is derived; nothing is
 * signed. A missing dev key is a usage error that names the fix.
 */
function attesterOf(source: ServiceConfig["attesterKey"]): Address {
  if ("privateKey" in source) return privateKeyToAddress(source.privateKey);
  const file = "file" in source ? source.file : join(source.dataDir, DEV_KEY_FILE);
  if ("dataDir" in source && !existsSync(file)) {
    throw new UsageError(
      `no attester: ${file} does not exist; start the service once in this DATA_DIR (npm start), or pass --attester <address>`,
    );
  }
  return privateKeyToAddress(loadPrivateKey({ keyFile: file, env: {} }));
}

/** Where the store is, for the log line (never the PostgreSQL URL: it may hold a password). */
function describeStore(database: ServiceConfig["database"]): string {
  return "databaseUrl" in database ? "PostgreSQL (DATABASE_URL)" : database.file;
}

export const mcpCommand: CliCommand = {
  name: "mcp",
  summary: COMMAND_SUMMARIES.mcp,
  usage: [
    "attest mcp [--attester <address>]",
    "  the store: DATA_DIR (SQLite, default ./data) or DATABASE_URL, opened read-only; FRESHNESS_WINDOW_S as the service",
    "  the attester: --attester, else ATTESTER_ADDRESS (with a signer), else the service's key (ATTESTER_PRIVATE_KEY,",
    "    ATTESTER_KEY_FILE, DATA_DIR/attester.key)",
    "  the registry: REGISTRY_CHAIN_ID and REGISTRY_ADDRESS, else the one the stored v2 attestations are bound to",
    "  runs until the client closes stdin; JSON-RPC on stdout, logs on stderr",
  ].join("\n"),
  async run(argv, io) {
    const { values } = parseCommandArgs({ argv, options: { attester: { type: "string" } } });
    const config = loadConfig({ env: io.env });
    const address =
      values.attester !== undefined
        ? parseAddressOption("--attester", values.attester)
        : (config.attesterSigner?.address ?? attesterOf(config.attesterKey));
    const store = await openStore({ ...config.database, readOnly: true });
    try {
      const registry = config.registry ?? (await findAttestedRegistry(store));
      const attester = getAttesterInfo({ address, registry });
      const registryLine =
        registry === null ? "no registry" : `registry ${registry.address} on chain ${registry.chainId}`;
      io.stderr(
        `attest mcp: store ${describeStore(config.database)} (read-only); attester ${attester.attester}; ${registryLine}`,
      );
      io.stderr("attest mcp: serving over stdio until the client closes stdin");
      await serveStdio({
        deps: {
          readContext: {
            db: store.db,
            freshnessWindowS: config.freshnessWindowS,
            now: () => Math.floor(Date.now() / 1000),
          },
          attester,
          onInternalError: (error, tool) => io.stderr(`attest mcp: ${tool} failed: ${errorLine(error)}`),
        },
      });
      io.stderr("attest mcp: the client closed stdin; stopped");
    } finally {
      await store.close();
    }
    return 0;
  },
};
