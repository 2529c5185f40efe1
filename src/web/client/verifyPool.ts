import { verifyAttestation } from "@attestation-registry/sdk";
import { BaseError } from "@attestation-registry/sdk/errors";
import { errorMessage, requestJson, say } from "./http";
import { formatTime } from "../format";

function set(selector: string, text: string): void {
  const element = document.querySelector(selector);
  if (element !== null) element.textContent = text;
}

/**
 * The pool page's check, run in the browser: fetch the attestation exactly as `GET /api/v1/pool/{pool}` serves it,
 * then the library's `verifyAttestation` rebuilds the canonical message from its fields, recovers the signer under
 * the strict rules and compares it with the pinned attester (the page's `data-attester`, the address
 * `GET /api/v1/attester` serves), never with the payload's `attester`. `valid` and `expired` are shown apart. The
 * outcome is also left on `<section data-verify>` as `data-result` ("valid", "invalid" or "error").
 */
export async function initVerifyPool(): Promise<void> {
  const section = document.querySelector<HTMLElement>("[data-verify]");
  const status = document.querySelector("[data-verify-status]");
  const id = document.body.dataset.poolId;
  const pinned = document.body.dataset.attester;
  if (section === null || id === undefined || pinned === undefined) return;
  try {
    const response = await requestJson(`/api/v1/pool/${encodeURIComponent(id)}`);
    if (!response.ok) throw new Error(errorMessage(response, "The attestation could not be fetched"));
    const attestation = response.body as Parameters<typeof verifyAttestation>[0]["attestation"];
    const result = verifyAttestation({ attestation, address: pinned });
    set(
      "[data-verify-valid]",
      result.valid ? "valid: signed by the pinned attester" : "INVALID: not signed by the pinned attester",
    );
    const expiry = Number((attestation as { expiry?: unknown }).expiry);
    set(
      "[data-verify-expired]",
      result.expired ? `expired (at ${formatTime(expiry)})` : `not expired (until ${formatTime(expiry)})`,
    );
    set("[data-verify-recovered]", result.attester ?? "none (the signature is malformed)");
    set("[data-verify-canonical]", result.canonical);
    section.dataset.result = result.valid ? "valid" : "invalid";
    section.dataset.expired = String(result.expired);
    say(
      status,
      result.valid ? "ok" : "error",
      result.valid
        ? `Verified in your browser: the signature is valid${result.expired ? ", and the attestation has expired" : ", and the attestation has not expired"}.`
        : "Verified in your browser: the signature does NOT recover to the pinned attester. Do not rely on this attestation.",
    );
  } catch (error) {
    section.dataset.result = "error";
    const message = error instanceof BaseError ? error.shortMessage : (error as Error).message;
    say(status, "error", `The attestation could not be verified: ${message}`);
  }
}
