/** Parameters shared by every error of the project (the shape of viem's `BaseErrorParameters`). */
export type BaseErrorParameters = {
  /** The underlying error, if any. Its message becomes `details` unless `details` is given. */
  cause?: Error | undefined;
  /** Stable machine-readable code, e.g. `ATTESTATION_FIELD_INVALID`. */
  code?: string | undefined;
  /** Extra detail (appended to `message`, never to `shortMessage`). */
  details?: string | undefined;
  /** Where the rule is documented, relative to the repository root, e.g. `docs/library.md#confidence`. */
  docsPath?: string | undefined;
  /** Lines that name the bad value and the fix. */
  metaMessages?: string[] | undefined;
  /** Overrides the class name. */
  name?: string | undefined;
};

export type BaseErrorType = BaseError & { name: "BaseError" };

/**
 * The one base class of every error this project throws. Each domain has its own `src/errors/<domain>.ts`
 * whose classes extend it and set a stable `code`.
 *
 * - `shortMessage`: one line, safe to print on its own (the CLI prints only this).
 * - `metaMessages`: the offending value and how to fix it.
 * - `docsPath`: where the rule is explained.
 * - `code`: a stable string (never changes wording), for programs and HTTP error bodies.
 */
export class BaseError extends Error {
  code: string;
  details: string;
  docsPath?: string | undefined;
  metaMessages?: string[] | undefined;
  shortMessage: string;

  override name = "BaseError";

  constructor(shortMessage: string, args: BaseErrorParameters = {}) {
    const details = args.cause instanceof BaseError ? args.cause.details : (args.details ?? args.cause?.message ?? "");
    const docsPath = args.docsPath ?? (args.cause instanceof BaseError ? args.cause.docsPath : undefined);
    const message = [
      shortMessage || "An error occurred.",
      ...(args.metaMessages && args.metaMessages.length > 0 ? ["", ...args.metaMessages] : []),
      ...(docsPath || details ? [""] : []),
      ...(docsPath ? [`Docs: ${docsPath}`] : []),
      ...(details ? [`Details: ${details}`] : []),
    ].join("\n");
    super(message, args.cause ? { cause: args.cause } : undefined);
    this.code = args.code ?? "ERROR";
    this.details = details;
    this.docsPath = docsPath;
    this.metaMessages = args.metaMessages;
    this.name = args.name ?? this.name;
    this.shortMessage = shortMessage;
  }

  /** Follows `cause` links: returns the innermost error, or the first for which `fn` returns true (else null). */
  walk(): Error;
  walk(fn: (error: unknown) => boolean): Error | null;
  walk(fn?: (error: unknown) => boolean): Error | null {
    return walk(this, fn) as Error | null;
  }
}

function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  if (fn?.(error)) return error;
  if (error && typeof error === "object" && "cause" in error && error.cause !== undefined) return walk(error.cause, fn);
  return fn ? null : error;
}
