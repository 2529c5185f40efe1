import { InvalidAlertSubscriptionError } from "../errors/alerts";

/**
 * Who owns a subscription: an API key (`key:<api key id>`, the keyed routes) or a signed-in wallet
 * (`wallet:<lower-case address>`, the dapp). A key sees and changes only its own subscriptions; a wallet sees and
 * changes its own and those of every key it created, revoked ones included. The caps and the delivery worker's fair
 * share count per account: a wallet with all its keys, or a configured key alone
 * (docs/security.md#keys-subscriptions-and-alerts).
 */
export type AlertOwner = `key:${string}` | `wallet:0x${string}`;

/** The owner of the subscriptions an API key makes (`request.apiKey.id` on the keyed routes). */
export function keyOwner(apiKeyId: string): AlertOwner {
  return `key:${apiKeyId}`;
}

/** The owner of the subscriptions a signed-in wallet makes (any case in, lower case out). */
export function walletOwner(address: string): AlertOwner {
  return normalizeAlertOwner(`wallet:${address}`);
}

/**
 * Checks an owner and returns it in its stored form (a wallet address lower-cased).
 *
 * @throws {@link InvalidAlertSubscriptionError} (field `owner`) for anything but `key:<id>` or `wallet:0x<40 hex>`.
 */
export function normalizeAlertOwner(owner: unknown): AlertOwner {
  if (typeof owner === "string") {
    if (/^key:[A-Za-z0-9_-]{1,64}$/.test(owner)) return owner as AlertOwner;
    if (/^wallet:0x[0-9a-fA-F]{40}$/.test(owner)) return owner.toLowerCase() as AlertOwner;
  }
  throw new InvalidAlertSubscriptionError({
    field: "owner",
    message: "The owner must be key:<API key id> or wallet:0x<40 hex digits>.",
  });
}
