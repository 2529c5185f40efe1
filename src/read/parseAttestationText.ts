import { parseAttestationJson } from "@attestation-registry/sdk";
import { BaseError } from "@attestation-registry/sdk/errors";
import { AttestationJsonError, InvalidAttestationError } from "../errors/verify";

export type ParseAttestationTextParameters = {
  /** The attestation as JSON text, exactly as `GET /api/v1/pool/{pool}` served it. */
  text: string;
};
export type ParseAttestationTextReturnType = unknown;
export type ParseAttestationTextErrorType = AttestationJsonError | InvalidAttestationError;

/**
 * Parses an attestation handed in as JSON text with the library's strict parser (a repeated member name is refused),
 * under the API's codes: a bad signed field (an integer written with a fraction, a sign…) is `INVALID_ATTESTATION`
 * naming the field; anything else is `INVALID_JSON`, naming the repeated member when there is one. The body parser
 * of `POST /api/v1/verify` and the MCP tool `verify_attestation` both use it.
 *
 * @param {@link ParseAttestationTextParameters}
 * @returns the parsed value (not yet checked: see `verifyAgainstAttester`).
 * @throws {@link AttestationJsonError} or {@link InvalidAttestationError}.
 * @example
 * import { parseAttestationText } from "./read/parseAttestationText";
 * const attestation = parseAttestationText({ text: '{"chainId":8453,…}' });
 */
export function parseAttestationText({ text }: ParseAttestationTextParameters): ParseAttestationTextReturnType {
  try {
    return parseAttestationJson({ text });
  } catch (error) {
    const cause = error instanceof Error ? error : undefined;
    const message = error instanceof BaseError ? error.shortMessage : "The body is not valid JSON.";
    const field = (error as { field?: unknown }).field;
    if (typeof field === "string") throw new InvalidAttestationError({ message, field, cause });
    const key = (error as { key?: unknown }).key;
    throw new AttestationJsonError({ message, field: typeof key === "string" ? key : undefined, cause });
  }
}
