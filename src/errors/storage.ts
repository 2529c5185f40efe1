import { BaseError, asError } from "@attestation-registry/sdk/errors";

/** Errors of the store (`src/storage`): opening, migrating, a database that does not answer. */

const DOCS = "docs/data.md";

export type StoreOpenErrorType = StoreOpenError & { name: "StoreOpenError" };
/** The database could not be opened or migrated. */
export class StoreOpenError extends BaseError {
  constructor({ shortMessage, fix, cause }: { shortMessage: string; fix: string; cause?: unknown }) {
    super(shortMessage, {
      code: "STORE_OPEN_FAILED",
      docsPath: `${DOCS}#storage`,
      metaMessages: [fix],
      cause: asError(cause),
      name: "StoreOpenError",
    });
  }
}

export type StoreUnavailableErrorType = StoreUnavailableError & { name: "StoreUnavailableError" };
/**
 * The store does not answer: the database is down, restarting, refusing connections or unreachable (the HTTP layer
 * answers 503 `STORE_UNAVAILABLE` with `Retry-After`; the next use of the store connects again).
 */
export class StoreUnavailableError extends BaseError {
  constructor({ cause }: { cause?: unknown } = {}) {
    super("The store does not answer; retry in a few seconds.", {
      code: "STORE_UNAVAILABLE",
      docsPath: "docs/operations.md#when-the-database-goes-away",
      cause: asError(cause),
      name: "StoreUnavailableError",
    });
  }
}

/**
 * SQLSTATEs of a server that is going away or not taking sessions: `57P01` admin shutdown (a fast restart), `57P02`
 * crash shutdown, `57P03` cannot connect now (starting up, shutting down), class `08` (connection exceptions) and
 * `53300` too many connections.
 */
const UNREACHABLE_SQLSTATES: ReadonlySet<string> = new Set([
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
]);

/** Socket errors on the way to the database server. */
const UNREACHABLE_ERRNOS: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * What `pg` and `pg-pool` throw, without a code, when the connection is lost or cannot be made in time: "Connection
 * terminated unexpectedly", "Connection terminated due to connection timeout", "timeout exceeded when trying to
 * connect" (the pool's `connectionTimeoutMillis`), "Client has encountered a connection error and is not queryable".
 */
const UNREACHABLE_MESSAGE = /^Connection terminated|timeout exceeded when trying to connect|is not queryable/;

/**
 * Whether an error thrown by the database driver means the store cannot be reached now (as opposed to a query the
 * store refused): one of the SQLSTATEs, socket errors or `pg` messages above, or SQLite still `SQLITE_BUSY` after its
 * busy timeout. Only the store's own driver errors are judged: an `ECONNREFUSED` from a chain's RPC is not the store.
 */
export function isStoreUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNREACHABLE_SQLSTATES.has(code) || UNREACHABLE_ERRNOS.has(code) || code.startsWith("SQLITE_BUSY")) return true;
  }
  return UNREACHABLE_MESSAGE.test(error.message);
}

/**
 * The driver's error as the store's callers see it: a {@link StoreUnavailableError} (its cause the driver's error)
 * when the store cannot be reached, else the error itself. `openStore` applies it to every connect and query.
 */
export function asStoreError(error: unknown): unknown {
  return isStoreUnreachable(error) ? new StoreUnavailableError({ cause: error }) : error;
}

/**
 * The {@link StoreUnavailableError} `error` is or was caused by (following `cause` links), or null: a caller that
 * wrapped a store error in its own is still answered as a store that does not answer.
 */
export function findStoreUnavailable(error: unknown): StoreUnavailableError | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 16; depth++) {
    if (current instanceof StoreUnavailableError) return current;
    current = current.cause;
  }
  return null;
}

/** What a driver's code means at start, in words (socket errors and the SQLSTATEs of a failed login). */
const FAILURE_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  "28P01": "authentication failed",
  "28000": "authentication failed",
  "3D000": "the database does not exist",
  "42501": "permission denied",
  "53300": "too many connections",
  "57P03": "the server is starting up or shutting down",
};

/**
 * Why the database could not be used, in one line that names the cause: `connection refused
 * (ECONNREFUSED 127.0.0.1:5432)`, `authentication failed (28P01): <server's message>`, `the database does not exist
 * (3D000): <server's message>`; else the driver's own first line. A {@link StoreUnavailableError} is looked through to
 * the driver's error it wraps. Never the connection URL (it may hold a password).
 */
export function describeStoreFailure(error: unknown): string {
  let driver = error;
  for (let depth = 0; driver instanceof StoreUnavailableError && driver.cause !== undefined && depth < 8; depth++) {
    driver = driver.cause;
  }
  const fields = (driver ?? {}) as { code?: unknown; address?: unknown; port?: unknown; errors?: unknown };
  const code = typeof fields.code === "string" ? fields.code : undefined;
  const words = code === undefined ? undefined : FAILURE_CAUSES[code];
  if (words === undefined) {
    const line = driver instanceof Error ? driver.message.split("\n")[0] : String(driver);
    return code === undefined || line.includes(code) ? line : `${line} (${code})`;
  }
  if (/^[0-9A-Z]{5}$/.test(code!) && !code!.startsWith("E")) {
    return `${words} (${code}): ${(driver as Error).message.split("\n")[0]}`;
  }
  // A socket error (an AggregateError when several addresses were tried: the first names one).
  const first = Array.isArray(fields.errors) ? (fields.errors[0] as typeof fields) : fields;
  const port = typeof first.port === "number" || typeof first.port === "string" ? first.port : undefined;
  const where = typeof first.address === "string" ? ` ${first.address}${port ? `:${port}` : ""}` : "";
  return `${words} (${code}${where})`;
}
