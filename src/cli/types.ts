/** What a command may touch: streams, environment and clock come in from outside so tests can drive them. */
export interface CliIo {
  /** Writes one line to standard output. */
  stdout(line: string): void;
  /** Writes one line to standard error. */
  stderr(line: string): void;
  /** Reads all of standard input, stopping one byte past `maxBytes` (default 1 MiB). */
  readStdin(maxBytes?: number): Promise<string>;
  /** The environment (RPC_URL, ATTESTER_PRIVATE_KEY, ...). */
  env: NodeJS.ProcessEnv;
}

/** One `attest <name>` subcommand. Lives in `src/cli/commands/<name>.ts` and is listed in `src/cli/main.ts`. */
export interface CliCommand {
  name: string;
  /** One line for `attest --help`. */
  summary: string;
  /** The usage line(s), printed on a usage error. */
  usage: string;
  /** Runs the command and returns the exit status. Throw `UsageError` (`src/errors/cli.ts`) for bad arguments. */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** Exit status for a usage error (BSD `EX_USAGE`). */
export const EXIT_USAGE = 64;
