import type { InvalidVerifyBackendErrorType, VerifyBackendUnavailableErrorType } from "../errors/verifyBackend";
import { parseVerifyBackendSetting, useBackend, type VerifyBackendSetting } from "./internal/recoverBackend";
import type { GetVerifyBackendReturnType } from "./getVerifyBackend";

export type SetVerifyBackendParameters = {
  /**
   * `auto`: libsecp256k1 (the `secp256k1` package's N-API addon) when it loads, else pure JS (@noble/curves).
   * `native`: libsecp256k1 or throw. `js`: pure JS.
   */
  backend: VerifyBackendSetting;
};

export type SetVerifyBackendReturnType = GetVerifyBackendReturnType;

export type SetVerifyBackendErrorType = InvalidVerifyBackendErrorType | VerifyBackendUnavailableErrorType;

/**
 * Chooses the signature-recovery backend of every verification in this thread (each worker thread chooses its own),
 * overriding the `ATTEST_VERIFY_BACKEND` environment variable. Both backends accept and refuse exactly the same
 * signatures: the strict rules run in the library before either. Meant for tests, benchmarks and operators who want
 * to pin one; the default (`auto`) needs no call.
 *
 * @param parameters - {@link SetVerifyBackendParameters}
 * @returns The backend now in use. {@link SetVerifyBackendReturnType}
 * @throws {VerifyBackendUnavailableError} `native` was asked for and libsecp256k1 cannot load here (nothing changes).
 * @throws {InvalidVerifyBackendError} `backend` is not `auto`, `native` or `js`.
 *
 * @example
 * import { setVerifyBackend } from "@attestation-registry/sdk";
 *
 * setVerifyBackend({ backend: "js" }); // e.g. to compare against the pure-JS path
 */
export function setVerifyBackend({ backend }: SetVerifyBackendParameters): SetVerifyBackendReturnType {
  const state = useBackend(parseVerifyBackendSetting("backend", backend));
  return { backend: state.backend, setting: state.setting, nativeError: state.nativeError };
}
