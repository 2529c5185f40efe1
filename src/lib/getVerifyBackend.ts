import type { InvalidVerifyBackendErrorType, VerifyBackendUnavailableErrorType } from "../errors/verifyBackend";
import { activeBackend, type VerifyBackend, type VerifyBackendSetting } from "./internal/recoverBackend";

export type { VerifyBackend, VerifyBackendSetting };

export type GetVerifyBackendReturnType = {
  /** The backend verifications use: `native` (libsecp256k1, N-API) or `js` (@noble/curves). */
  backend: VerifyBackend;
  /** What was asked for: by `setVerifyBackend`, else `ATTEST_VERIFY_BACKEND`, else `auto`. */
  setting: VerifyBackendSetting;
  /** Why `auto` fell back to `js` (e.g. no prebuild for this platform, or a browser bundle); null otherwise. */
  nativeError: string | null;
};

export type GetVerifyBackendErrorType = InvalidVerifyBackendErrorType | VerifyBackendUnavailableErrorType;

/**
 * Says which signature-recovery backend this thread verifies with, choosing it on first use (as the first
 * verification would).
 *
 * @returns `{ backend, setting, nativeError }`. {@link GetVerifyBackendReturnType}
 * @throws {VerifyBackendUnavailableError} `ATTEST_VERIFY_BACKEND=native` and libsecp256k1 cannot load here.
 * @throws {InvalidVerifyBackendError} `ATTEST_VERIFY_BACKEND` is not `auto`, `native` or `js`.
 *
 * @example
 * import { getVerifyBackend } from "@attestation-registry/sdk";
 *
 * const { backend, nativeError } = getVerifyBackend();
 * if (backend === "js") console.warn(`verifying in pure JS: ${nativeError}`);
 */
export function getVerifyBackend(): GetVerifyBackendReturnType {
  const { backend, setting, nativeError } = activeBackend();
  return { backend, setting, nativeError };
}
