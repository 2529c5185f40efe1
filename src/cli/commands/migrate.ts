import { loadConfig } from "../../config/loadConfig";
import { BaseError, errorLine } from "@attestation-registry/sdk/errors";
import { KNOWN_MIGRATIONS } from "../../storage/migrateStore";
import { openStore } from "../../storage/openStore";
import { parseCommandArgs } from "../shared/args";
import type { CliCommand } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

/**
 * One line for a failure: the error's own line, then its fix (the first meta message) unless the line already says
 * it. Never a stack trace, never the database URL.
 */
export function storeFailureLine(error: unknown): string {
  const line = errorLine(error);
  const fix = error instanceof BaseError ? error.metaMessages?.[0] : undefined;
  return fix === undefined || line.includes(fix) ? line : `${line} ${fix}`;
}

export const migrateCommand: CliCommand = {
  name: "migrate",
  summary: COMMAND_SUMMARIES.migrate,
  usage: [
    "attest migrate",
    "  the store: DATABASE_URL (PostgreSQL), else DATA_DIR/service.sqlite (default ./data), as the service finds it",
    "  prints one line per migration applied, or: schema up to date (N migrations)",
    "  refuses a store migrated by a newer build (naming both versions); exit 1 with one line on any failure",
  ].join("\n"),
  async run(argv, io) {
    parseCommandArgs({ argv, options: {} });
    const config = loadConfig({ env: io.env });
    let migrated: readonly string[];
    try {
      const store = await openStore({ ...config.database, migrate: true });
      migrated = store.migrated ?? [];
      await store.close();
    } catch (error) {
      io.stderr(`attest migrate: ${storeFailureLine(error)}`);
      return 1;
    }
    for (const name of migrated) io.stdout(`applied ${name}`);
    if (migrated.length === 0) io.stdout(`schema up to date (${KNOWN_MIGRATIONS.length} migrations)`);
    return 0;
  },
};
