import { BaseError } from "./base";

/** Errors of starting the process (`src/main`, and the demo it may start). */

export type StartupAbortedErrorType = StartupAbortedError & { name: "StartupAbortedError" };

/** Startup was aborted by the caller's signal (Ctrl-C while starting); everything started so far has been stopped. */
export class StartupAbortedError extends BaseError {
  override name = "StartupAbortedError";
  constructor() {
    super("startup aborted", { code: "STARTUP_ABORTED", docsPath: "docs/service.md#run-it" });
  }
}
