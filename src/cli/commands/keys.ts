import type { Kysely } from "kysely";
import { loadConfig } from "../../config/loadConfig";
import { UsageError } from "../../errors/cli";
import { formatIsoTime } from "@attestation-registry/sdk/errors";
import {
  CONFIG_KEY_OWNER,
  findApiKeyBySha256,
  listConfigApiKeys,
  revokeApiKey,
  type ConfigApiKeyListing,
} from "../../storage/apiKeys";
import { openStore, type Store } from "../../storage/openStore";
import type { Database } from "../../storage/schema";
import { hashApiKey } from "../../write/hashApiKey";
import { parseCommandArgs } from "../shared/args";
import { readInputText } from "../shared/input";
import type { CliCommand, CliIo } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";
import { storeFailureLine } from "./migrate";

/** Which configured key `attest keys revoke` revokes: found by its id, its label, or the key itself (hashed). */
type KeySelector = { id: string } | { label: string } | { keySha256: string; from: string };

/** Thrown when the selected key cannot be revoked: printed as one line, exit 1. */
class KeyNotRevocable extends Error {}

const when = (seconds: number | null) => (seconds === null ? "-" : formatIsoTime(BigInt(seconds)));

/** `attest keys list`: one header line, then one line per configured key (never the key; 4 hex digits of its hash). */
function printList(io: CliIo, keys: ConfigApiKeyListing[]): void {
  if (keys.length === 0) {
    io.stdout("no configured API keys in the store (API_KEYS adds them at a start)");
    return;
  }
  const rows = keys.map((key) => [
    key.id,
    key.label ?? "-",
    when(key.created_at),
    when(key.revoked_at),
    `…${key.hash_tail}`,
  ]);
  const table = [["id", "label", "created", "revoked", "sha256"], ...rows];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  for (const row of table)
    io.stdout(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd(),
    );
}

/** The key's text from `--key-file <path>` (`-`: standard input): one key, surrounding whitespace ignored. */
async function readKey(file: string, io: CliIo): Promise<string> {
  const key = (await readInputText(file, io)).trim();
  const where = file === "-" ? "standard input" : file;
  if (key === "") throw new UsageError(`--key-file: ${where} is empty; it must hold the key to revoke`);
  if (/\s/.test(key)) throw new UsageError(`--key-file: ${where} must hold one key (no spaces or line breaks inside)`);
  return key;
}

/** The one configured key `selector` names, or why there is none to revoke (never naming the key). */
async function findKey(db: Kysely<Database>, selector: KeySelector): Promise<ConfigApiKeyListing> {
  const keys = await listConfigApiKeys(db);
  if ("keySha256" in selector) {
    const row = await findApiKeyBySha256(db, selector.keySha256);
    if (row === undefined) throw new KeyNotRevocable(`no key in the store matches the key in ${selector.from}`);
    if (row.owner !== CONFIG_KEY_OWNER) {
      throw new KeyNotRevocable(`the key in ${selector.from} is a wallet's key; its owner revokes it in the dapp`);
    }
    return keys.find((key) => key.id === row.id)!;
  }
  const matches =
    "id" in selector
      ? keys.filter((key) => key.id === selector.id)
      : keys.filter((key) => key.label === selector.label);
  const what = "id" in selector ? `id ${selector.id}` : `label "${selector.label}"`;
  if (matches.length === 0) throw new KeyNotRevocable(`no configured key has ${what} (see attest keys list)`);
  const live = matches.filter((key) => key.revoked_at === null);
  if (live.length > 1) {
    throw new KeyNotRevocable(
      `${live.length} keys have ${what}: revoke one by --id (${live.map((k) => k.id).join(", ")})`,
    );
  }
  return live[0] ?? matches[0];
}

/** Runs `attest keys revoke`; returns the exit status. */
async function revoke(store: Store, selector: KeySelector, io: CliIo): Promise<number> {
  let key: ConfigApiKeyListing;
  try {
    key = await findKey(store.db, selector);
  } catch (error) {
    if (!(error instanceof KeyNotRevocable)) throw error;
    io.stderr(`attest keys revoke: ${error.message}`);
    return 1;
  }
  const label = `${key.id} (${key.label ?? "no label"}, sha256 …${key.hash_tail})`;
  if (key.revoked_at !== null) {
    io.stdout(`already revoked: ${label} at ${when(key.revoked_at)}`);
    return 0;
  }
  const now = Math.floor(Date.now() / 1000);
  const done = await revokeApiKey(store.db, { id: key.id, owner: CONFIG_KEY_OWNER, now });
  io.stdout(
    `${done ? "revoked" : "already revoked"}: ${label}; remove it from every API_KEYS (a start never restores it)`,
  );
  return 0;
}

/** The selector of `attest keys revoke`: exactly one of `--id`, `--label`, `--key-file`. */
async function parseSelector(
  values: { id?: string; label?: string; "key-file"?: string },
  io: CliIo,
): Promise<KeySelector> {
  const given = (["id", "label", "key-file"] as const).filter((name) => values[name] !== undefined);
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0
        ? "say which key: --id <id> or --label <label> (from attest keys list), or --key-file <path> (- for standard input)"
        : `give one of --id, --label, --key-file, not ${given.map((name) => `--${name}`).join(" and ")}`,
    );
  }
  if (values.id !== undefined) return { id: values.id };
  if (values.label !== undefined) return { label: values.label };
  const file = values["key-file"]!;
  const key = await readKey(file, io);
  return { keySha256: hashApiKey({ key }), from: file === "-" ? "standard input" : file };
}

export const keysCommand: CliCommand = {
  name: "keys",
  summary: COMMAND_SUMMARIES.keys,
  usage: [
    "attest keys list",
    "attest keys revoke (--id <id> | --label <label> | --key-file <path>)",
    "  the store: DATABASE_URL (PostgreSQL), else DATA_DIR/service.sqlite, as the service finds it",
    "  list: the configured keys (API_KEYS, the demo key): id, label, created, revoked, the last 4 hex digits of the",
    "    key's SHA-256; never the key",
    "  revoke: by id or label from the list, or by the key itself read from a file (--key-file -: standard input;",
    "    never on the command line, where ps would show it). A revoked key stays revoked: a start never restores it",
  ].join("\n"),
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs({
      argv,
      allowPositionals: true,
      options: { id: { type: "string" }, label: { type: "string" }, "key-file": { type: "string" } },
    });
    const [action, ...extra] = positionals;
    if (action !== "list" && action !== "revoke") {
      throw new UsageError(action === undefined ? "say list or revoke" : `unknown action "${action.slice(0, 40)}"`);
    }
    if (extra.length > 0) {
      // Never echoed: it may be a key typed on the command line.
      throw new UsageError(
        "unexpected argument: give a key with --key-file <path> (or - for standard input), never inline",
      );
    }
    if (action === "list" && given(values)) throw new UsageError("list takes no options");
    const selector = action === "revoke" ? await parseSelector(values, io) : null;
    const config = loadConfig({ env: io.env });
    let store: Store;
    try {
      store = await openStore({ ...config.database, migrate: false });
    } catch (error) {
      io.stderr(`attest keys: ${storeFailureLine(error)}`);
      return 1;
    }
    try {
      if (selector === null) {
        printList(io, await listConfigApiKeys(store.db));
        return 0;
      }
      return await revoke(store, selector, io);
    } finally {
      await store.close();
    }
  },
};

function given(values: Record<string, unknown>): boolean {
  return Object.values(values).some((value) => value !== undefined);
}
