import {
  createClient,
  getTypesForEIP712Domain,
  http,
  serializeTypedData,
  stringToHex,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { AttesterSignerError } from "../errors/signer";
import { readBodyCapped } from "../net/readBody";
import {
  createAttestationMessage,
  getAttestationTypedData,
  recoverAttestationSigner,
  recoverTypedAttestationSigner,
  signAttestation,
  signTypedAttestation,
  type AttestationFields,
  type AttestationRegistry,
} from "@attestation-registry/sdk";
import { errorLine, redactRpcUrl } from "@attestation-registry/sdk/errors";

/**
 * Who signs the service's attestations: a key in the process ({@link createLocalSigner}) or a JSON-RPC signer that
 * holds the key elsewhere ({@link createJsonRpcSigner}: Clef, Web3Signer, a Hardhat node). Issuance only calls these
 * two methods; both return 65-byte `r‖s‖v` signatures, low-s, v ∈ {27, 28}, by `address`.
 */
export interface AttestationSigner {
  /** The attester: every signature recovers to it. */
  readonly address: Address;
  /** The v1 signature: EIP-191 `personal_sign` of the canonical message (`createAttestationMessage`). */
  signAttestation(attestation: AttestationFields): Promise<Hex>;
  /** The v2 signature: EIP-712 typed data bound to `registry` (`getAttestationTypedData`). */
  signTypedAttestation(attestation: AttestationFields, registry: AttestationRegistry): Promise<Hex>;
}

/**
 * A signer over a private key held in the process, through the attestation library (`signAttestation`,
 * `signTypedAttestation`: deterministic RFC 6979, low-s).
 *
 * @param privateKey the attester key (`0x` + 64 hex digits).
 * @returns the {@link AttestationSigner}.
 * @example
 * const signer = createLocalSigner("0x…");
 * const signature = await signer.signAttestation(attestation);
 */
export function createLocalSigner(privateKey: Hex): AttestationSigner {
  return {
    address: privateKeyToAddress(privateKey),
    signAttestation: (attestation) => signAttestation({ attestation, privateKey }),
    signTypedAttestation: (attestation, registry) => signTypedAttestation({ attestation, registry, privateKey }),
  };
}

/** Parameters of {@link createJsonRpcSigner}. */
export type CreateJsonRpcSignerParameters = {
  /** `ATTESTER_SIGNER_URL`: the signer's JSON-RPC endpoint (http or https). */
  url: string;
  /** `ATTESTER_ADDRESS`: the account the signer holds; every signature must recover to it. */
  address: Address;
  /** Per request, in ms. Default 30 000 (a signer may ask a human or an HSM). */
  timeoutMs?: number;
  /** Largest answer read, in bytes (a signature answer is about 200). Default {@link MAX_SIGNER_ANSWER_BYTES}. */
  maxAnswerBytes?: number;
};

/** Largest answer read from a remote signer: 64 KiB (a JSON-RPC signature answer is about 200 bytes). */
export const MAX_SIGNER_ANSWER_BYTES = 64 * 1024;

/**
 * `fetch`, with the answer's body read through the one bounded reader: a body above `maxBytes` is cancelled as soon as
 * it passes the cap and the request fails, never buffered whole.
 */
function cappedFetch(maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await readBodyCapped(response, maxBytes);
    if (text === null) throw new Error(`the signer's answer is larger than ${maxBytes} bytes`);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The JSON-RPC methods tried, in order, for each kind of signature: the first the signer knows is used. */
export const SIGNER_METHODS = {
  /** EIP-191: `personal_sign` (Hardhat, Anvil, geth-style nodes), `eth_sign` (Web3Signer), `account_signData` (Clef). */
  v1: ["personal_sign", "eth_sign", "account_signData"],
  /** EIP-712: `eth_signTypedData_v4` (Hardhat, Anvil), `eth_signTypedData` (Web3Signer), `account_signTypedData` (Clef). */
  v2: ["eth_signTypedData_v4", "eth_signTypedData", "account_signTypedData"],
} as const;

/** JSON-RPC "method not found" (-32601) and EIP-1474 "method not supported" (-32004): try the next method. */
const UNKNOWN_METHOD_CODES = new Set([-32601, -32004]);

/**
 * A signer whose key lives in another process: the v1 message goes out as `personal_sign` (EIP-191) and the v2 block
 * as `eth_signTypedData_v4` (EIP-712); a signer that does not know a method is asked with the next of
 * {@link SIGNER_METHODS} (Web3Signer's and Clef's names for the same signatures). Each returned signature is checked
 * before it is used: it must pass the strict attestation rules (65 bytes, low-s; a `v` of 0/1 is read as 27/28) and
 * recover, for the very message asked, to `address`. Anything else throws, so issuance stores nothing.
 *
 * @param {@link CreateJsonRpcSignerParameters}
 * @returns the {@link AttestationSigner}.
 * @throws {@link AttesterSignerError} from its methods: `unreachable`, `invalid` or `wrong-signer`.
 * @example
 * const signer = createJsonRpcSigner({ url: "http://127.0.0.1:8550", address: "0x7099…79C8" });
 */
export function createJsonRpcSigner({
  url,
  address,
  timeoutMs = 30_000,
  maxAnswerBytes = MAX_SIGNER_ANSWER_BYTES,
}: CreateJsonRpcSignerParameters): AttestationSigner {
  const client = createClient({
    transport: http(url, { timeout: timeoutMs, retryCount: 0, fetchFn: cappedFetch(maxAnswerBytes) }),
  });
  const request = client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  const where = redactRpcUrl(url);
  /** Asks each method in turn until one is known; returns its answer and the method that gave it. */
  const ask = async (methods: readonly string[], params: (method: string) => unknown[]) => {
    for (const [index, method] of methods.entries()) {
      try {
        const answer = await request({ method, params: params(method) });
        return { method, signature: normalizeV(typeof answer === "string" ? (answer as Hex) : "0x") };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const unknown = typeof code === "number" && UNKNOWN_METHOD_CODES.has(code);
        if (unknown && index < methods.length - 1) continue;
        throw new AttesterSignerError({
          problem: "unreachable",
          shortMessage: unknown
            ? `The attester signer at ${where} knows none of ${methods.join(", ")}: ${reason(error, url, where)}`
            : `The attester signer at ${where} did not sign (${method}): ${reason(error, url, where)}`,
          fix: `Check ATTESTER_SIGNER_URL is reachable and that the signer holds ${address} unlocked for ${method}.`,
          // No cause: viem's error text carries the whole URL, whose path or query may hold a token.
        });
      }
    }
    throw new Error("unreachable: SIGNER_METHODS lists at least one method");
  };
  const check = ({ method, signature }: { method: string; signature: Hex }, recover: (signature: Hex) => Address) => {
    let signer: Address;
    try {
      signer = recover(signature);
    } catch (error) {
      throw new AttesterSignerError({
        problem: "invalid",
        shortMessage: `The attester signer at ${where} returned an unusable signature (${method}): ${errorLine(error)}`,
        fix: "The signer must return 65 bytes r‖s‖v with low s; nothing was stored.",
        cause: error,
      });
    }
    if (signer !== address) {
      throw new AttesterSignerError({
        problem: "wrong-signer",
        shortMessage: `The attester signer at ${where} signed as ${signer}, not ATTESTER_ADDRESS ${address} (${method}); nothing stored.`,
        fix: "Set ATTESTER_ADDRESS to the account the signer holds, or point ATTESTER_SIGNER_URL at the right signer.",
      });
    }
    return signature;
  };
  return {
    address,
    async signAttestation(attestation) {
      const data = stringToHex(createAttestationMessage({ attestation }));
      const answer = await ask(SIGNER_METHODS.v1, (method) =>
        method === "personal_sign"
          ? [data, address]
          : method === "eth_sign"
            ? [address, data]
            : ["text/plain", address, data],
      );
      return check(answer, (signature) => recoverAttestationSigner({ attestation, signature }));
    },
    async signTypedAttestation(attestation, registry) {
      const typedData = getAttestationTypedData({ attestation, registry });
      // As viem's signTypedData sends it: the domain's own type listed, integers as decimal strings.
      const types = { EIP712Domain: getTypesForEIP712Domain({ domain: typedData.domain }), ...typedData.types };
      const definition: Parameters<typeof serializeTypedData>[0] = { ...typedData, types };
      const json = serializeTypedData(definition);
      const answer = await ask(SIGNER_METHODS.v2, (method) => [
        address,
        method === "account_signTypedData" ? JSON.parse(json) : json,
      ]);
      return check(answer, (signature) => recoverTypedAttestationSigner({ attestation, registry, signature }));
    },
  };
}

/** viem's one line, then the signer's own words (a JSON-RPC error's message), the full URL replaced by `where`. */
function reason(error: unknown, url: string, where: string): string {
  const line = errorLine(error);
  const details = (error as { details?: unknown }).details;
  const own =
    typeof details === "string" && details !== "" && !line.includes(details) ? ` (${details.slice(0, 200)})` : "";
  return `${line}${own}`.split(url).join(where);
}

/** Some signers answer with `v` ∈ {0, 1}: the same signature as 27/28, which the strict rules require. */
function normalizeV(signature: Hex): Hex {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return signature;
  const v = parseInt(signature.slice(130), 16);
  return v === 0 || v === 1 ? (`${signature.slice(0, 130)}${(v + 27).toString(16)}` as Hex) : signature;
}
