// Public API: an explicit list of named exports (no `export *`), grouped by module.

export {
  type Attestation,
  type AttestationEip712,
  type AttestationFields,
  type AttestationRegistry,
  type AttestationSignature,
  type IntegerInput,
  type NormalizedAttestation,
  type TypedAttestation,
} from "./lib/types";

// v1: EIP-191 canonical message
export {
  type CreateAttestationMessageErrorType,
  type CreateAttestationMessageParameters,
  type CreateAttestationMessageReturnType,
  createAttestationMessage,
} from "./lib/createAttestationMessage";
export {
  type FormatConfidenceErrorType,
  type FormatConfidenceParameters,
  type FormatConfidenceReturnType,
  formatConfidence,
} from "./lib/formatConfidence";
export {
  type HashAttestationErrorType,
  type HashAttestationParameters,
  type HashAttestationReturnType,
  hashAttestation,
} from "./lib/hashAttestation";
export {
  type NormalizeAttestationErrorType,
  type NormalizeAttestationParameters,
  type NormalizeAttestationReturnType,
  normalizeAttestation,
} from "./lib/normalizeAttestation";
export {
  type ParseAttestationJsonErrorType,
  type ParseAttestationJsonParameters,
  type ParseAttestationJsonReturnType,
  parseAttestationJson,
} from "./lib/parseAttestationJson";
export {
  type ParseAttestationSignatureErrorType,
  type ParseAttestationSignatureParameters,
  type ParseAttestationSignatureReturnType,
  parseAttestationSignature,
} from "./lib/parseAttestationSignature";
export {
  type RecoverAttestationSignerErrorType,
  type RecoverAttestationSignerParameters,
  type RecoverAttestationSignerReturnType,
  recoverAttestationSigner,
} from "./lib/recoverAttestationSigner";
export {
  type SignAttestationErrorType,
  type SignAttestationParameters,
  type SignAttestationReturnType,
  signAttestation,
} from "./lib/signAttestation";
export {
  type VerifyAttestationErrorType,
  type VerifyAttestationParameters,
  type VerifyAttestationReturnType,
  verifyAttestation,
} from "./lib/verifyAttestation";
export {
  type VerifyAttestationsErrorType,
  type VerifyAttestationsParameters,
  type VerifyAttestationsResult,
  type VerifyAttestationsReturnType,
  verifyAttestations,
} from "./lib/verifyAttestations";

// v2: EIP-712 (what the registry checks)
export {
  type FromTypedAttestationErrorType,
  type FromTypedAttestationParameters,
  type FromTypedAttestationReturnType,
  type TypedAttestationInput,
  fromTypedAttestation,
} from "./lib/fromTypedAttestation";
export {
  attestationTypes,
  type GetAttestationTypedDataErrorType,
  type GetAttestationTypedDataParameters,
  type GetAttestationTypedDataReturnType,
  getAttestationTypedData,
} from "./lib/getAttestationTypedData";
export {
  type HashTypedAttestationErrorType,
  type HashTypedAttestationParameters,
  type HashTypedAttestationReturnType,
  hashTypedAttestation,
} from "./lib/hashTypedAttestation";
export {
  type RecoverTypedAttestationSignerErrorType,
  type RecoverTypedAttestationSignerParameters,
  type RecoverTypedAttestationSignerReturnType,
  recoverTypedAttestationSigner,
} from "./lib/recoverTypedAttestationSigner";
export {
  type SignTypedAttestationErrorType,
  type SignTypedAttestationParameters,
  type SignTypedAttestationReturnType,
  signTypedAttestation,
} from "./lib/signTypedAttestation";
export {
  type ToTypedAttestationErrorType,
  type ToTypedAttestationParameters,
  type ToTypedAttestationReturnType,
  toTypedAttestation,
} from "./lib/toTypedAttestation";
export {
  type VerifyTypedAttestationErrorType,
  type VerifyTypedAttestationParameters,
  type VerifyTypedAttestationReturnType,
  verifyTypedAttestation,
} from "./lib/verifyTypedAttestation";

// Signature recovery backend: libsecp256k1 (N-API) where it loads, else pure JS; both accept exactly the same inputs
export {
  type GetVerifyBackendErrorType,
  type GetVerifyBackendReturnType,
  type VerifyBackend,
  type VerifyBackendSetting,
  getVerifyBackend,
} from "./lib/getVerifyBackend";
export {
  type SetVerifyBackendErrorType,
  type SetVerifyBackendParameters,
  type SetVerifyBackendReturnType,
  setVerifyBackend,
} from "./lib/setVerifyBackend";

// Pool identifiers (the three shapes every reader accepts)
export {
  type FormatPoolIdErrorType,
  type FormatPoolIdParameters,
  type FormatPoolIdReturnType,
  formatPoolId,
} from "./lib/formatPoolId";
export {
  type ParsePoolIdErrorType,
  type ParsePoolIdParameters,
  type ParsePoolIdReturnType,
  type PoolRef,
  parsePoolId,
} from "./lib/parsePoolId";

// Errors
export { BaseError, type BaseErrorParameters, type BaseErrorType } from "./errors/base";
export {
  AttestationNotObjectError,
  type AttestationNotObjectErrorType,
  DuplicateJsonKeyError,
  type DuplicateJsonKeyErrorType,
  InvalidAttestationFieldError,
  type InvalidAttestationFieldErrorType,
  InvalidAttestationSignatureError,
  type InvalidAttestationSignatureErrorType,
  InvalidConfidenceError,
  type InvalidConfidenceErrorType,
  InvalidExpectedAddressError,
  type InvalidExpectedAddressErrorType,
  InvalidIntegerFieldError,
  type InvalidIntegerFieldErrorType,
  InvalidJsonError,
  type InvalidJsonErrorType,
  InvalidPoolAddressError,
  type InvalidPoolAddressErrorType,
  InvalidPrivateKeyError,
  type InvalidPrivateKeyErrorType,
  InvalidTimeError,
  type InvalidTimeErrorType,
  MissingAttestationFieldError,
  type MissingAttestationFieldErrorType,
  MissingPrivateKeyError,
  type MissingPrivateKeyErrorType,
  SignatureRecoveryError,
  type SignatureRecoveryErrorType,
  TypedAttestationRangeError,
  type TypedAttestationRangeErrorType,
  UnreadableKeyFileError,
  type UnreadableKeyFileErrorType,
} from "./errors/attestation";
export { InvalidPoolIdError, type InvalidPoolIdErrorType } from "./errors/pool";
export {
  InvalidVerifyBackendError,
  type InvalidVerifyBackendErrorType,
  VerifyBackendUnavailableError,
  type VerifyBackendUnavailableErrorType,
} from "./errors/verifyBackend";

// Registry: ABI and attester operations (viem actions; need a client)
export { attestationRegistryAbi } from "./abi/attestationRegistryAbi";
export {
  type AttesterState,
  type RegistryPublicClient,
  type RegistryWalletClient,
  type RegistryWriteReturnType,
} from "./actions/types";
export {
  type RegisterAttesterErrorType,
  type RegisterAttesterParameters,
  type RegisterAttesterReturnType,
  registerAttester,
} from "./actions/registerAttester";
export { type AddBondErrorType, type AddBondParameters, type AddBondReturnType, addBond } from "./actions/addBond";
export {
  type RequestUnbondErrorType,
  type RequestUnbondParameters,
  type RequestUnbondReturnType,
  requestUnbond,
} from "./actions/requestUnbond";
export {
  type DeregisterAttesterErrorType,
  type DeregisterAttesterParameters,
  type DeregisterAttesterReturnType,
  deregisterAttester,
} from "./actions/deregisterAttester";
export {
  type WithdrawBondErrorType,
  type WithdrawBondParameters,
  type WithdrawBondReturnType,
  withdrawBond,
} from "./actions/withdrawBond";
export {
  type RevokeDigestsErrorType,
  type RevokeDigestsParameters,
  type RevokeDigestsReturnType,
  revokeDigests,
} from "./actions/revokeDigests";
export {
  type GetAttesterStatusErrorType,
  type GetAttesterStatusParameters,
  type GetAttesterStatusReturnType,
  getAttesterStatus,
} from "./actions/getAttesterStatus";
export {
  type IsDigestRevokedErrorType,
  type IsDigestRevokedParameters,
  type IsDigestRevokedReturnType,
  isDigestRevoked,
} from "./actions/isDigestRevoked";
// The registry's reverts: one class per custom error of IAttestationRegistry.sol, plus the unknown-revert fallback
export {
  type AlreadyRegisteredErrorType,
  type AlreadyRevokedErrorType,
  type AlreadyUnbondingErrorType,
  type AttesterRemovedErrorType,
  type BondOverflowErrorType,
  type BondTooLowErrorType,
  type InvalidMinBondErrorType,
  type InvalidUnbondingPeriodErrorType,
  type MalformedAttestationErrorType,
  type NotRegisteredErrorType,
  type NotUnbondingErrorType,
  type RegistryErrorType,
  type SlashExceedsBondErrorType,
  type TransferFailedErrorType,
  type UnbondingNotElapsedErrorType,
  type UnknownRegistryRevertErrorType,
  type ZeroAddressErrorType,
  type ZeroAmountErrorType,
  AlreadyRegisteredError,
  AlreadyRevokedError,
  AlreadyUnbondingError,
  AttesterRemovedError,
  BondOverflowError,
  BondTooLowError,
  InvalidMinBondError,
  InvalidUnbondingPeriodError,
  MalformedAttestationError,
  NotRegisteredError,
  NotUnbondingError,
  SlashExceedsBondError,
  TransferFailedError,
  UnbondingNotElapsedError,
  UnknownRegistryRevertError,
  ZeroAddressError,
  ZeroAmountError,
} from "./errors/registry";
// Around a registry call: transport, deployment, funds, the mined transaction, arguments
export {
  type InsufficientFundsErrorType,
  type InvalidDigestErrorType,
  type NotARegistryErrorType,
  type RegistryNotDeployedErrorType,
  type RegistryTransactionRevertedErrorType,
  type RpcErrorType,
  type RpcHttpErrorType,
  type RpcUnreachableErrorType,
  InsufficientFundsError,
  InvalidDigestError,
  NotARegistryError,
  RegistryNotDeployedError,
  RegistryTransactionRevertedError,
  RpcHttpError,
  RpcUnreachableError,
} from "./errors/rpc";
