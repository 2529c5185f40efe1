import { BaseError } from "./base";

/**
 * Errors of the signature-recovery backend choice (`src/lib/setVerifyBackend.ts`, env `ATTEST_VERIFY_BACKEND`). They
 * never describe an attestation: they say the process is configured for a backend it cannot use.
 */

const DOCS = "docs/verification.md#choosing-a-backend";

/** The values `ATTEST_VERIFY_BACKEND` and `setVerifyBackend` accept. */
export const VERIFY_BACKEND_SETTINGS = ["auto", "native", "js"] as const;

export type InvalidVerifyBackendErrorType = InvalidVerifyBackendError & { name: "InvalidVerifyBackendError" };
/** `ATTEST_VERIFY_BACKEND` (or the `backend` parameter) is not one of `auto`, `native`, `js`. */
export class InvalidVerifyBackendError extends BaseError {
  readonly source: string;
  constructor({ source, value }: { source: string; value: unknown }) {
    const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : String(value);
    super(`${source} must be one of ${VERIFY_BACKEND_SETTINGS.join(", ")}, got ${shown}.`, {
      code: "VERIFY_BACKEND_INVALID",
      docsPath: DOCS,
      metaMessages: ["auto: libsecp256k1 when it loads, else pure JS; native: libsecp256k1 or fail; js: pure JS."],
      name: "InvalidVerifyBackendError",
    });
    this.source = source;
  }
}

export type VerifyBackendUnavailableErrorType = VerifyBackendUnavailableError & {
  name: "VerifyBackendUnavailableError";
};
/** The native backend (libsecp256k1 through the `secp256k1` package) was required but cannot be loaded here. */
export class VerifyBackendUnavailableError extends BaseError {
  constructor({ reason }: { reason: string }) {
    super(`The native verification backend (libsecp256k1) cannot be loaded: ${reason}`, {
      code: "VERIFY_BACKEND_UNAVAILABLE",
      docsPath: DOCS,
      metaMessages: [
        'Reinstall with "npm ci" on a platform the secp256k1 package ships a prebuild for (linux-x64, darwin-arm64, ' +
          "win32-x64), or use ATTEST_VERIFY_BACKEND=auto (falls back to pure JS) or js.",
      ],
      name: "VerifyBackendUnavailableError",
    });
  }
}

/** Every error this domain throws. */
export type VerifyBackendErrorType = InvalidVerifyBackendErrorType | VerifyBackendUnavailableErrorType;
