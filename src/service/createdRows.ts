import { Type, type TObject } from "@sinclair/typebox";
import type { CreateSubscriptionReturnType } from "../alerts/createSubscription";
import type { PoolNames } from "../web/components";
import { newSubscriptionRow } from "../web/pages/alerts";
import { apiKeyRow } from "../web/pages/apiKeys";
import { CreatedAlertSubscriptionSchema } from "./schemas/alertSubscriptions";
import { CreatedWalletApiKeySchema } from "./schemas/appApi";

/**
 * The dapp's create endpoints answer the new table row as the page renders it (`rowHtml`), beside their JSON: the
 * client bundle inserts that row instead of building its own copy of the cells.
 */
const rowHtml = Type.String({ description: "the new row of the page's table (`<tr>…</tr>`), rendered by the server" });

function withRowHtml<T extends TObject>(schema: T) {
  return Type.Composite([schema, Type.Object({ rowHtml })], { additionalProperties: false, title: schema.title });
}

/** `POST /app/api/keys` (201): the created key (shown once) and its row. */
export const CreatedWalletApiKeyWithRowSchema = withRowHtml(CreatedWalletApiKeySchema);

/** `POST /app/api/alert-subscriptions` (201): the created subscription (its secret shown once) and its row. */
export const CreatedAlertSubscriptionWithRowSchema = withRowHtml(CreatedAlertSubscriptionSchema);

/** The keys page's row of a key just created (active, with its Revoke button). */
export function createdApiKeyRowHtml(key: { id: string; label: string | null; createdAt: number }): string {
  return apiKeyRow({ id: key.id, label: key.label, createdAt: key.createdAt, revokedAt: null }).toString();
}

/** The alerts page's row of a subscription just created (active, nothing delivered yet), its pool named by `names`. */
export function createdSubscriptionRowHtml(created: CreateSubscriptionReturnType, names: PoolNames): string {
  return newSubscriptionRow(created, names).toString();
}
