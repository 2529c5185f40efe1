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
