import type { Kysely } from "kysely";
import { AlertSubscriptionKeyRevokedError, AlertSubscriptionNotFoundError } from "../errors/alerts";
import { resumeAlertSubscription } from "../storage/alertSubscriptions";
import type { Database } from "../storage/schema";
import { listSubscriptions, type SubscriptionView } from "./listSubscriptions";
import { normalizeAlertOwner } from "./subscriptionOwner";

export type ResumeSubscriptionParameters = {
  db: Kysely<Database>;
  /** `key:<API key id>` or `wallet:<address>`. */
  owner: string;
  id: string;
};

/**
 * Makes a paused subscription active again (a no-op on an active one). Its rows still pending go out from the oldest
 * event on; the row that failed stays failed; events written while it was paused were not queued for it (read them
 * from `GET /api/v1/activity`). A wallet may resume its keys' subscriptions too, except those of a revoked key: they
 * stay paused (delete them and subscribe again).
 *
 * @param {@link ResumeSubscriptionParameters}
 * @returns the subscription's {@link SubscriptionView}.
 * @throws {@link AlertSubscriptionNotFoundError} when the owner has no subscription with this id;
 * {@link AlertSubscriptionKeyRevokedError} when it was made with a key that is now revoked.
 * @example
 * import { resumeSubscription } from "./alerts/resumeSubscription";
 * await resumeSubscription({ db, owner: walletOwner(session.address), id });
 */
export async function resumeSubscription({ db, owner, id }: ResumeSubscriptionParameters): Promise<SubscriptionView> {
  const normalized = normalizeAlertOwner(owner);
  const resumed = await resumeAlertSubscription(db, { owner: normalized, id: String(id) });
  if (resumed === "not-found") throw new AlertSubscriptionNotFoundError();
  if (resumed === "key-revoked") throw new AlertSubscriptionKeyRevokedError();
  const view = (await listSubscriptions({ db, owner: normalized })).find((subscription) => subscription.id === id);
  if (view === undefined) throw new AlertSubscriptionNotFoundError();
  return view;
}
