import { BaseError } from "./base";

const DOCS = "docs/library.md";

/** Short, printable form of a bad value for error messages (never throws, never prints more than 80 chars). */
function show(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (typeof value === "bigint") text = `${value}n`;
  else if (typeof value === "number") text = Object.is(value, -0) ? "-0" : String(value);
  else if (value === undefined) text = "undefined";
  else {
    try {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a function or a symbol (no JSON): String() names it
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export type AttestationNotObjectErrorType = AttestationNotObjectError & { name: "AttestationNotObjectError" };
/** The attestation is not a JSON object (null, an array, a string...). */
export class AttestationNotObjectError extends BaseError {
  readonly field = null;
  constructor({ value }: { value: unknown }) {
    super("Attestation must be a JSON object.", {
      code: "ATTESTATION_NOT_OBJECT",
      docsPath: `${DOCS}#v1-eip-191`,
      metaMessages: [
        `Received: ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
        "Pass the object returned by GET /api/v1/pool/{pool}.",
      ],
      name: "AttestationNotObjectError",
    });
  }
}

export type MissingAttestationFieldErrorType = MissingAttestationFieldError & { name: "MissingAttestationFieldError" };
/** A required field is absent. */
export class MissingAttestationFieldError extends BaseError {
  readonly field: string;
  constructor({ field }: { field: string }) {
    super(`Attestation field "${field}" is missing.`, {
      code: "ATTESTATION_FIELD_MISSING",
      docsPath: `${DOCS}#v1-eip-191`,
      metaMessages: [
        `Add "${field}": the signed fields are chainId, confidence, expiry, horizon, issuedAt, pool, plus signature.`,
      ],
      name: "MissingAttestationFieldError",
    });
    this.field = field;
  }
}

export type InvalidAttestationFieldErrorType = InvalidAttestationFieldError & { name: "InvalidAttestationFieldError" };
/** A field is present but malformed. `field` names it, `reason` says what is wrong. */
export class InvalidAttestationFieldError extends BaseError {
  readonly field: string;
  readonly reason: string;
  constructor({
    field,
    value,
    reason,
    fix,
    code = "ATTESTATION_FIELD_INVALID",
    anchor = "v1-eip-191",
    name = "InvalidAttestationFieldError",
    received = show(value),
  }: {
    field: string;
    value: unknown;
    reason: string;
    fix: string;
    code?: string;
    anchor?: string;
    name?: string;
    /** How the bad value is shown in `metaMessages` (default: a short rendering of `value`). */
    received?: string;
  }) {
    super(`Attestation field "${field}" is invalid: ${reason}.`, {
      code,
      docsPath: `${DOCS}#${anchor}`,
      metaMessages: [`Received: ${received}`, fix],
      name,
    });
    this.field = field;
    this.reason = reason;
  }
}

export type InvalidIntegerFieldErrorType = InvalidIntegerFieldError & { name: "InvalidIntegerFieldError" };
/**
 * chainId, expiry, horizon or issuedAt is not a non-negative safe integer (number or canonical decimal string).
 * From `parseAttestationJson`, `text` is the number as written in the JSON (e.g. `8453.0`) and `position` its offset.
 */
export class InvalidIntegerFieldError extends InvalidAttestationFieldError {
  readonly position: number | undefined;
  constructor({
    field,
    value,
    reason,
    text,
    position,
  }: {
    field: string;
    value: unknown;
    reason: string;
    text?: string;
    position?: number;
  }) {
    super({
      field,
      value,
      reason,
      received:
        text === undefined
          ? undefined
          : `${text.length > 80 ? `${text.slice(0, 77)}...` : text} (JSON text${position === undefined ? "" : ` at position ${position}`})`,
      fix: `Use a non-negative integer <= 9007199254740991, as a JSON number written as plain digits or a decimal string like "8453" (no sign, hex, fraction, exponent or leading zero).`,
      code: "ATTESTATION_INTEGER_INVALID",
      anchor: "integer-fields",
      name: "InvalidIntegerFieldError",
    });
    this.position = position;
  }
}

export type InvalidConfidenceErrorType = InvalidConfidenceError & { name: "InvalidConfidenceError" };
/** confidence is not a finite, non-negative JSON number. */
export class InvalidConfidenceError extends InvalidAttestationFieldError {
  constructor({ value, reason }: { value: unknown; reason: string }) {
    super({
      field: "confidence",
      value,
      reason,
      fix: "Use a finite non-negative JSON number such as 0.85 (not a string); it is signed as a two-digit decimal string.",
      code: "ATTESTATION_CONFIDENCE_INVALID",
      anchor: "confidence",
      name: "InvalidConfidenceError",
    });
  }
}

export type InvalidPoolAddressErrorType = InvalidPoolAddressError & { name: "InvalidPoolAddressError" };
/** pool is not `0x` followed by 40 hex digits. */
export class InvalidPoolAddressError extends InvalidAttestationFieldError {
  constructor({ value, reason }: { value: unknown; reason: string }) {
    super({
      field: "pool",
      value,
      reason,
      fix: 'Use "0x" followed by 40 hexadecimal digits (any case; no checksum is required).',
      code: "ATTESTATION_POOL_INVALID",
      anchor: "pool",
      name: "InvalidPoolAddressError",
    });
  }
}

export type InvalidAttestationSignatureErrorType = InvalidAttestationSignatureError & {
  name: "InvalidAttestationSignatureError";
};
/** The signature does not pass the strict attestation rules (65 bytes r||s||v, v in {27,28}, 1 <= r < n, 1 <= s <= n/2). */
export class InvalidAttestationSignatureError extends BaseError {
  readonly field = "signature";
  readonly reason: string;
  constructor({ signature, reason }: { signature: unknown; reason: string }) {
    super(`Attestation signature is invalid: ${reason}.`, {
      code: "ATTESTATION_SIGNATURE_INVALID",
      docsPath: `${DOCS}#signature`,
      metaMessages: [
        `Received: ${show(signature)}`,
        "Expected 65 bytes r||s||v as hex (optional 0x), v in {27, 28}, 1 <= r < n, 1 <= s <= n/2 (low-s).",
      ],
      name: "InvalidAttestationSignatureError",
    });
    this.reason = reason;
  }
}

export type SignatureRecoveryErrorType = SignatureRecoveryError & { name: "SignatureRecoveryError" };
/** A well-formed signature from which no public key can be recovered (r is not the x of a curve point). */
export class SignatureRecoveryError extends BaseError {
  readonly field = "signature";
  constructor({ cause }: { cause?: Error | undefined } = {}) {
    super("No signer can be recovered from this signature.", {
      cause,
      code: "ATTESTATION_SIGNATURE_UNRECOVERABLE",
      docsPath: `${DOCS}#signature`,
      metaMessages: [
        "The signature is well-formed but does not correspond to any public key: it was not produced by a signer.",
      ],
      name: "SignatureRecoveryError",
    });
  }
}

export type InvalidExpectedAddressErrorType = InvalidExpectedAddressError & { name: "InvalidExpectedAddressError" };
/** An address parameter (expected attester, registry) is malformed. */
export class InvalidExpectedAddressError extends BaseError {
  readonly parameter: string;
  constructor({ parameter, value }: { parameter: string; value: unknown }) {
    super(`Parameter "${parameter}" is not an address.`, {
      code: "ADDRESS_INVALID",
      docsPath: `${DOCS}#api`,
      metaMessages: [`Received: ${show(value)}`, 'Use "0x" followed by 40 hexadecimal digits.'],
      name: "InvalidExpectedAddressError",
    });
    this.parameter = parameter;
  }
}

export type InvalidTimeErrorType = InvalidTimeError & { name: "InvalidTimeError" };
/** The `time` parameter is not a valid Date. */
export class InvalidTimeError extends BaseError {
  constructor({ value }: { value: unknown }) {
    super('Parameter "time" must be a valid Date.', {
      code: "TIME_INVALID",
      docsPath: `${DOCS}#api`,
      metaMessages: [
        `Received: ${show(value)}`,
        "Pass e.g. new Date(unixSeconds * 1000), or omit it for the current time.",
      ],
      name: "InvalidTimeError",
    });
  }
}

export type InvalidJsonErrorType = InvalidJsonError & { name: "InvalidJsonError" };
/** The text is not JSON. */
export class InvalidJsonError extends BaseError {
  readonly position: number;
  constructor({ reason, position }: { reason: string; position: number }) {
    super(`Input is not valid JSON: ${reason} at position ${position}.`, {
      code: "JSON_INVALID",
      docsPath: `${DOCS}#json-input`,
      metaMessages: ["Pass the JSON text exactly as returned by GET /api/v1/pool/{pool}."],
      name: "InvalidJsonError",
    });
    this.position = position;
  }
}

export type DuplicateJsonKeyErrorType = DuplicateJsonKeyError & { name: "DuplicateJsonKeyError" };
/** An object in the JSON text repeats a member name (ambiguous: parsers disagree on which one wins). */
export class DuplicateJsonKeyError extends BaseError {
  readonly key: string;
  readonly path: string;
  constructor({ key, path, position }: { key: string; path: string; position: number }) {
    super(`Input JSON repeats the member name ${JSON.stringify(key)}${path ? ` in ${path}` : ""}.`, {
      code: "JSON_DUPLICATE_KEY",
      docsPath: `${DOCS}#json-input`,
      metaMessages: [
        `Second occurrence at position ${position}.`,
        "Each member name may appear once: parsers disagree on which value wins, so the input is rejected.",
      ],
      name: "DuplicateJsonKeyError",
    });
    this.key = key;
    this.path = path;
  }
}

export type TypedAttestationRangeErrorType = TypedAttestationRangeError & { name: "TypedAttestationRangeError" };
/** A value does not fit its EIP-712 (v2) type, or a v2 value cannot be expressed in v1. */
export class TypedAttestationRangeError extends BaseError {
  readonly field: string;
  constructor({ field, value, type, reason }: { field: string; value: unknown; type: string; reason?: string }) {
    super(`Attestation field "${field}" does not fit ${type}${reason ? `: ${reason}` : ""}.`, {
      code: "ATTESTATION_V2_OUT_OF_RANGE",
      docsPath: `${DOCS}#v2-eip-712`,
      metaMessages: [
        `Received: ${show(value)}`,
        "This attestation cannot be converted between the v1 and v2 formats; issue one whose values fit both.",
      ],
      name: "TypedAttestationRangeError",
    });
    this.field = field;
  }
}

export type InvalidPrivateKeyErrorType = InvalidPrivateKeyError & { name: "InvalidPrivateKeyError" };
/** A private key is malformed or out of range. The key itself is never included in the message. */
export class InvalidPrivateKeyError extends BaseError {
  constructor({ source, reason }: { source: string; reason: string }) {
    super(`Private key from ${source} is invalid: ${reason}.`, {
      code: "PRIVATE_KEY_INVALID",
      docsPath: "docs/cli-verify.md#keys",
      metaMessages: ["Expected 32 bytes as 64 hex digits (optional 0x), non-zero and below the curve order."],
      name: "InvalidPrivateKeyError",
    });
  }
}

export type MissingPrivateKeyErrorType = MissingPrivateKeyError & { name: "MissingPrivateKeyError" };
/** No private key was configured. */
export class MissingPrivateKeyError extends BaseError {
  constructor() {
    super("No attester private key configured.", {
      code: "PRIVATE_KEY_MISSING",
      docsPath: "docs/cli-verify.md#keys",
      metaMessages: ["Set ATTESTER_PRIVATE_KEY, or point --key-file / ATTESTER_KEY_FILE at a file holding the key."],
      name: "MissingPrivateKeyError",
    });
  }
}

export type UnreadableKeyFileErrorType = UnreadableKeyFileError & { name: "UnreadableKeyFileError" };
/** The key file cannot be read. */
export class UnreadableKeyFileError extends BaseError {
  constructor({ path, cause }: { path: string; cause?: Error | undefined }) {
    super(
      `Cannot read key file ${JSON.stringify(path)}${cause && "code" in cause ? ` (${String(cause.code)})` : ""}.`,
      {
        code: "KEY_FILE_UNREADABLE",
        docsPath: "docs/cli-verify.md#keys",
        metaMessages: ["Check the path and its permissions."],
        name: "UnreadableKeyFileError",
      },
    );
  }
}
