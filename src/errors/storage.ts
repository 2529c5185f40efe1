import { BaseError } from "./base";
import { asError } from "./utils";

/** Errors of the store (`src/storage`): opening, migrating. */

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
/** The store did not answer a read (the HTTP layer answers 503). */
export class StoreUnavailableError extends BaseError {
  constructor({ cause }: { cause?: unknown } = {}) {
    super("The store does not answer.", {
      code: "STORE_UNAVAILABLE",
      docsPath: `${DOCS}#storage`,
      cause: asError(cause),
      name: "StoreUnavailableError",
    });
  }
}
