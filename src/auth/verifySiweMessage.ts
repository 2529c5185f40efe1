import { recoverMessageAddress, type Address } from "viem";
import {
  SiweChainRefusedError,
  SiweDomainMismatchError,
  SiweExpirationTooFarError,
  SiweIssuedInFutureError,
  SiweIssuedTooLongAgoError,
  SiweMessageExpiredError,
  SiweMessageNotYetValidError,
  SiweNonceInvalidError,
  SiweSignatureMismatchError,
  SiweUriMismatchError,
  type InvalidSiweMessageErrorType,
  type SiweChainRefusedErrorType,
  type SiweDomainMismatchErrorType,
  type SiweExpirationTooFarErrorType,
  type SiweIssuedInFutureErrorType,
  type SiweIssuedTooLongAgoErrorType,
  type SiweMessageExpiredErrorType,
  type SiweMessageNotYetValidErrorType,
  type SiweNonceInvalidErrorType,
  type SiweSignatureMalformedErrorType,
  type SiweSignatureMismatchErrorType,
  type SiweUriMismatchErrorType,
} from "../errors/siwe";
import { parseDateTime } from "./internal/rfc3339";
import { parseSiweMessage } from "./parseSiweMessage";
import { parseSiweSignature } from "./parseSiweSignature";
import type { SiweMessage } from "./types";

export type VerifySiweMessageParameters = {
  /** The exact text the wallet signed. */
  message: string;
  /** The wallet's `personal_sign` signature. */
  signature: unknown;
  /** The check time. */
  time: Date;
  /** The expected domain (`host[:port]`, the host compared without case). Unchecked when absent. */
  domain?: string;
  /** The expected scheme: a message that names one must name this one. Unchecked when absent. */
  scheme?: string;
  /** The expected origin of the message's URI (`scheme://host[:port]`). Unchecked when absent. */
  uriOrigin?: string;
  /** The expected nonce. Unchecked when absent. */
  nonce?: string;
  /** The chain ids accepted. Unchecked when absent. */
  chainIds?: readonly number[];
  /** Refuse an `Issued At` later than `time` plus this many seconds. Unchecked when absent. */
  issuedAtSkewS?: number;
  /** Refuse an `Issued At` earlier than `time` minus this many seconds. Unchecked when absent. */
  maxIssuedAgeS?: number;
  /** Refuse an `Expiration Time` later than `time` plus this many seconds. Unchecked when absent. */
  maxExpirationS?: number;
};
export type VerifySiweMessageReturnType = {
  /** The address recovered by ecrecover, equal to `fields.address`. */
  address: Address;
  fields: SiweMessage;
};
export type VerifySiweMessageErrorType =
  | InvalidSiweMessageErrorType
  | SiweSignatureMalformedErrorType
  | SiweSignatureMismatchErrorType
  | SiweNonceInvalidErrorType
  | SiweDomainMismatchErrorType
  | SiweUriMismatchErrorType
  | SiweChainRefusedErrorType
  | SiweMessageExpiredErrorType
  | SiweMessageNotYetValidErrorType
  | SiweIssuedInFutureErrorType
  | SiweIssuedTooLongAgoErrorType
  | SiweExpirationTooFarErrorType;

/**
 * Verifies a Sign-In with Ethereum message for an externally owned account, offline: the signature is read under
 * {@link parseSiweSignature}'s rules, the signer is recovered by ecrecover from the EIP-191 hash of the EXACT text
 * (never a message rebuilt from fields) and must equal the message's address; then the text is parsed strictly and its
 * fields are checked against what the caller expects. No RPC and no smart accounts: unlike viem's
 * `verifySiweMessage`, an ERC-1271 or ERC-6492 signature is refused, never checked on chain.
 *
 * Time rules (those of the reference implementation): expired when `time >= expirationTime`, not yet valid when
 * `time < notBefore`. `issuedAtSkewS` and `maxExpirationS` add the service's own limits.
 *
 * @param {@link VerifySiweMessageParameters}
 * @returns the recovered address and the parsed fields. {@link VerifySiweMessageReturnType}
 * @throws the first failed check's error ({@link VerifySiweMessageErrorType}), each with its own `code`.
 * @example
 * import { verifySiweMessage } from "./src/auth/verifySiweMessage";
 * const { address } = await verifySiweMessage({
 *   message, signature, time: new Date(), domain: "127.0.0.1:8080", uriOrigin: "http://127.0.0.1:8080", nonce,
 * });
 */
export async function verifySiweMessage(parameters: VerifySiweMessageParameters): Promise<VerifySiweMessageReturnType> {
  const { message, signature } = parameters;
  const fields = parseSiweMessage({ message });
  const { normalized } = parseSiweSignature({ signature });
  const address = await recoverMessageAddress({ message, signature: normalized });
  if (address !== fields.address) throw new SiweSignatureMismatchError();
  checkSiweFields({ ...parameters, fields });
  return { address, fields };
}

/** The field checks of {@link verifySiweMessage}, on a message whose signature is already verified. */
function checkSiweFields(parameters: VerifySiweMessageParameters & { fields: SiweMessage }): void {
  const { fields, domain, scheme, uriOrigin, nonce, chainIds } = parameters;
  if (nonce !== undefined && fields.nonce !== nonce)
    throw new SiweNonceInvalidError({ reason: "not the expected nonce" });
  if (scheme !== undefined && fields.scheme !== undefined && fields.scheme.toLowerCase() !== scheme.toLowerCase()) {
    throw new SiweDomainMismatchError({ field: "scheme", expected: scheme });
  }
  if (domain !== undefined && fields.domain.toLowerCase() !== domain.toLowerCase()) {
    throw new SiweDomainMismatchError({ field: "domain", expected: domain });
  }
  if (uriOrigin !== undefined && !isOnOrigin(fields.uri, uriOrigin))
    throw new SiweUriMismatchError({ expected: uriOrigin });
  if (chainIds !== undefined && !chainIds.includes(fields.chainId)) {
    throw new SiweChainRefusedError({ chainId: fields.chainId, accepted: chainIds });
  }
  checkSiweTimes(parameters);
}

function checkSiweTimes({
  fields,
  time,
  issuedAtSkewS,
  maxIssuedAgeS,
  maxExpirationS,
}: VerifySiweMessageParameters & { fields: SiweMessage }): void {
  const now = time.getTime();
  // The parser has checked every timestamp, so none of these is null.
  const issuedAt = parseDateTime(fields.issuedAt) as number;
  const expirationTime =
    fields.expirationTime === undefined ? undefined : (parseDateTime(fields.expirationTime) as number);
  const notBefore = fields.notBefore === undefined ? undefined : (parseDateTime(fields.notBefore) as number);
  if (expirationTime !== undefined && now >= expirationTime) throw new SiweMessageExpiredError();
  if (notBefore !== undefined && now < notBefore) throw new SiweMessageNotYetValidError();
  if (issuedAtSkewS !== undefined && issuedAt > now + issuedAtSkewS * 1000) {
    throw new SiweIssuedInFutureError({ skewS: issuedAtSkewS });
  }
  if (maxIssuedAgeS !== undefined && issuedAt < now - maxIssuedAgeS * 1000) {
    throw new SiweIssuedTooLongAgoError({ maxAgeS: maxIssuedAgeS });
  }
  if (maxExpirationS !== undefined && expirationTime !== undefined && expirationTime > now + maxExpirationS * 1000) {
    throw new SiweExpirationTooFarError({ maxS: maxExpirationS });
  }
}

/** Whether `uri` is an http(s) URL on `origin`, without user information. */
function isOnOrigin(uri: string, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return url.username === "" && url.password === "" && url.origin === origin;
}
