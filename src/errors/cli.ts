import { BaseError } from "@attestation-registry/sdk/errors";

/**
 * Errors of the `attest` CLI (`src/cli`). The CLI prints only the `shortMessage` (one line), so both classes take
 * that line and nothing else; how each is reported and with which exit status is the CLI's business
 * (`src/cli/main.ts`, `src/cli/commands/verify.ts`).
 */

export type UsageErrorType = UsageError & { name: "UsageError" };
/** Bad arguments: `main` prints the line and the command's usage on standard error and exits with 64 (`EX_USAGE`). */
export class UsageError extends BaseError {
  constructor(shortMessage: string) {
    super(shortMessage, { code: "CLI_USAGE", name: "UsageError" });
  }
}

export type InputErrorType = InputError & { name: "InputError" };
/**
 * The input could not be obtained (missing file, input over the 1 MiB cap, HTTP failure): `attest verify` reports it
 * in its result line (exit 1), `attest digest` and `attest sign` as one line on standard error (exit 1).
 */
export class InputError extends BaseError {
  constructor(shortMessage: string) {
    super(shortMessage, { code: "CLI_INPUT", name: "InputError" });
  }
}

/** Every error this domain throws. */
export type CliErrorType = UsageErrorType | InputErrorType;
