// `@attestation-registry/sdk/errors`: the SDK's `BaseError` and the formatters every error domain shares, on a subpath
// that loads nothing else of the SDK (no viem, no curves). The service's errors extend this `BaseError` (one class for
// the SDK's errors and the service's), and the CLI's entry prints errors, without loading the whole library.

export { BaseError, type BaseErrorParameters, type BaseErrorType } from "./base";
export { asError, errorLine, formatDuration, formatIsoTime, redactRpcUrl } from "./utils";
