import { randomBytes } from "node:crypto";

/** Random bytes in a subscription's secret (Standard Webhooks asks for 24 to 64). */
export const WEBHOOK_SECRET_BYTES = 32;

/**
 * A new signing secret in the Standard Webhooks form: `whsec_` + base64 of {@link WEBHOOK_SECRET_BYTES} random bytes
 * from the system CSPRNG. The store keeps it as is, because signing a delivery (HMAC-SHA256) needs the secret itself;
 * the API shows it once, at creation.
 *
 * @example
 * import { generateWebhookSecret } from "./alerts/generateWebhookSecret";
 * const secret = generateWebhookSecret(); // "whsec_…"
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(WEBHOOK_SECRET_BYTES).toString("base64")}`;
}
