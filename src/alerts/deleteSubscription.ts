import type { Kysely } from "kysely";
import { AlertSubscriptionNotFoundError } from "../errors/alerts";
import { deleteAlertSubscription } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { normalizeAlertOwner } from "./subscriptionOwner";

export type DeleteSubscriptionParameters = {
  db: Kysely<Database>;
  /** `key:<API key id>` or `wallet:<address>`. */
  owner: string;
  id: string;
};

/**
 * Deletes one of the owner's subscriptions (a wallet's: those of its keys too, revoked or not), with its queued
 * deliveries and their attempts: nothing more is sent to it.
 *
 * @param {@link DeleteSubscriptionParameters}
 * @throws {@link AlertSubscriptionNotFoundError} when the owner has no subscription with this id (another owner's
 * id included: it is not told apart).
 * @example
 * import { deleteSubscription } from "./alerts/deleteSubscription";
 * await deleteSubscription({ db, owner: keyOwner(apiKey.id), id });
 */
export async function deleteSubscription({ db, owner, id }: DeleteSubscriptionParameters): Promise<void> {
  const deleted = await deleteAlertSubscription(db, { owner: normalizeAlertOwner(owner), id: String(id) });
  if (!deleted) throw new AlertSubscriptionNotFoundError();
}
