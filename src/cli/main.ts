import { UsageError } from "../errors/cli";
import { errorLine } from "@attestation-registry/sdk/errors";
import { readProcessStdin } from "./shared/input";
import { COMMAND_SUMMARIES, type CommandName } from "./summaries";
import type { CliCommand, CliIo } from "./types";
import { EXIT_USAGE } from "./types";

/**
 * Every subcommand, loaded on demand so `attest verify` does not load the chain actions and `attest --help` loads none
 * (it lists {@link COMMAND_SUMMARIES}).
 */
const commands: Record<CommandName, () => Promise<CliCommand>> = {
  verify: async () => (await import("./commands/verify")).verifyCommand,
  digest: async () => (await import("./commands/digest")).digestCommand,
  sign: async () => (await import("./commands/sign")).signCommand,
  register: async () => (await import("./commands/register")).registerCommand,
  bond: async () => (await import("./commands/bond")).bondCommand,
  unbond: async () => (await import("./commands/unbond")).unbondCommand,
  withdraw: async () => (await import("./commands/withdraw")).withdrawCommand,
  revoke: async () => (await import("./commands/revoke")).revokeCommand,
  status: async () => (await import("./commands/status")).statusCommand,
  migrate: async () => (await import("./commands/migrate")).migrateCommand,
  keys: async () => (await import("./commands/keys")).keysCommand,
  model: async () => (await import("./commands/model")).modelCommand,
  grade: async () => (await import("./commands/grade")).gradeCommand,
  mcp: async () => (await import("./commands/mcp")).mcpCommand,
};

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
    // At most one byte past the 1 MiB cap (MAX_INPUT_BYTES in ./shared/input).
    readStdin: readProcessStdin,
    env: process.env,
  };
}

/** Runs `attest <command> [args]` and returns the exit status. Never throws. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    // Asked for: standard output, exit 0. No command at all is a usage error: standard error, exit 64.
    const print = (line: string) => (name === undefined ? io.stderr(line) : io.stdout(line));
    print("usage: attest <command> [options]");
    print("");
    print("commands:");
    for (const [key, summary] of Object.entries(COMMAND_SUMMARIES)) print(`  ${key.padEnd(9)} ${summary}`);
    print("");
    print('run "attest <command> --help" for the options of a command');
    return name === undefined ? EXIT_USAGE : 0;
  }
  const load = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name as CommandName] : undefined;
  if (!load) {
    io.stderr(`attest: unknown command "${name}"; run "attest --help" for the list`);
    return EXIT_USAGE;
  }
  const command = await load();
  const usage = `usage: ${command.usage}`.split("\n");
  // `--help` or `-h` anywhere before a `--` separator: the command's usage on standard output, exit 0.
  const end = rest.indexOf("--");
  if ((end === -1 ? rest : rest.slice(0, end)).some((arg) => arg === "--help" || arg === "-h")) {
    io.stdout(`attest ${name}: ${command.summary}`);
    for (const line of usage) io.stdout(line);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // Every write is one line: the message (first line only, in case a command passes a longer one), then the usage.
      io.stderr(`attest ${name}: ${errorLine(error)}`);
      for (const line of usage) io.stderr(line);
      return EXIT_USAGE;
    }
    // One line, never a stack trace: the message says what to fix.
    io.stderr(`attest ${name}: ${errorLine(error)}`);
    return 1;
  }
}
