import { createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { AttesterSignerError } from "../errors/signer";
import { errorLine, redactRpcUrl } from "../errors/utils";
import { createAttestationMessage } from "../lib/createAttestationMessage";
import { getAttestationTypedData } from "../lib/getAttestationTypedData";
import { recoverAttestationSigner } from "../lib/recoverAttestationSigner";
import { recoverTypedAttestationSigner } from "../lib/recoverTypedAttestationSigner";
import { signAttestation } from "../lib/signAttestation";
import { signTypedAttestation } from "../lib/signTypedAttestation";
import type { AttestationFields, AttestationRegistry } from "../lib/types";

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
};

/**
 * A signer whose key lives in another process: the v1 message goes out as `personal_sign` (EIP-191) and the v2 block
 * as `eth_signTypedData_v4` (EIP-712), the methods Clef, Web3Signer and Hardhat nodes answer. Each returned signature
 * is checked before it is used: it must pass the strict attestation rules (65 bytes, low-s; a `v` of 0/1 is read as
 * 27/28) and recover, for the very message asked, to `address`. Anything else throws, so issuance stores nothing.
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
}: CreateJsonRpcSignerParameters): AttestationSigner {
  const wallet = createWalletClient({ account: address, transport: http(url, { timeout: timeoutMs, retryCount: 0 }) });
  const where = redactRpcUrl(url);
  const ask = async (method: string, request: () => Promise<Hex>): Promise<Hex> => {
    try {
      return normalizeV(await request());
    } catch (error) {
      throw new AttesterSignerError({
        problem: "unreachable",
        shortMessage: `The attester signer at ${where} did not sign (${method}): ${errorLine(error)}`,
        fix: `Check ATTESTER_SIGNER_URL is reachable and that the signer holds ${address} unlocked for ${method}.`,
        // No cause: viem's error text carries the whole URL, whose path or query may hold a token.
      });
    }
  };
  const check = (method: string, signature: Hex, recover: () => Address): Hex => {
    let signer: Address;
    try {
      signer = recover();
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
      const message = createAttestationMessage({ attestation });
      const signature = await ask("personal_sign", () => wallet.signMessage({ message }));
      return check("personal_sign", signature, () => recoverAttestationSigner({ attestation, signature }));
    },
    async signTypedAttestation(attestation, registry) {
      const typedData = getAttestationTypedData({ attestation, registry });
      const signature = await ask("eth_signTypedData_v4", () => wallet.signTypedData(typedData));
      return check("eth_signTypedData_v4", signature, () =>
        recoverTypedAttestationSigner({ attestation, registry, signature }),
      );
    },
  };
}

/** Some signers answer with `v` ∈ {0, 1}: the same signature as 27/28, which the strict rules require. */
function normalizeV(signature: Hex): Hex {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return signature;
  const v = parseInt(signature.slice(130), 16);
  return v === 0 || v === 1 ? (`${signature.slice(0, 130)}${(v + 27).toString(16)}` as Hex) : signature;
}
