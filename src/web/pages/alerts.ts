import type { SubscriptionView } from "../../alerts/listSubscriptions";
import { ACTIVITY_KIND_DESCRIPTIONS, type ActivityKind } from "../../model/activityKinds";
import type { PoolListItem } from "../../read/listPools";
import { copyField, namedPool, notice, poolNames, scrollTable, type PoolNames } from "../components";
import { chainName, deliveriesText, formatTime, protocolName } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { confirmDialog, confirmFirst, type ConfirmQuestion } from "./confirm";

export type AlertsPageParameters = {
  /** The wallet's subscriptions (`listSubscriptions` with owner `wallet:<address>`, also `GET /app/api/alert-subscriptions`). */
  subscriptions: readonly SubscriptionView[];
  /** The activity kinds a subscription may name (`ALERT_KINDS`). */
  kinds: readonly ActivityKind[];
  /** The tracked pools a subscription may be limited to, and that name a subscription's pool (the `listPools` reader). */
  pools: readonly PoolListItem[];
  /** The id of a subscription the confirmation page just deleted, told in a notice. */
  deleted?: string | null;
};

/** The question before a subscription is deleted (the dialog's and the confirmation page's). */
export function deleteSubscriptionQuestion(s: Pick<SubscriptionView, "id" | "url" | "kinds">): ConfirmQuestion {
  return {
    title: "Delete this alert subscription?",
    text: `Delete the subscription to ${s.url} (${s.kinds.join(", ")})? Nothing more is sent to it, and its queued deliveries are dropped. This cannot be undone.`,
    confirm: "Delete subscription",
  };
}

/** The page that asks before a subscription is deleted, without JavaScript (`GET /app/alerts/{id}/delete`). */
export function deleteSubscriptionPath(id: string): string {
  return `/app/alerts/${encodeURIComponent(id)}/delete`;
}

/** One row of the subscriptions table (its pool named by `names`). */
function subscriptionRow(s: SubscriptionView, names: PoolNames): Html {
  const state =
    s.state === "active"
      ? html`<span class="tag fresh">active</span>`
      : html`<span class="tag stale">paused</span> ${formatTime(s.pausedAt)}<br /><span class="muted"
            >${s.pausedReason}</span
          >`;
  const lastError =
    s.lastError === null
      ? ""
      : html`<br /><span class="muted">last error ${formatTime(s.lastErrorAt)}: ${s.lastError}</span>`;
  return html`<tr data-subscription-id="${s.id}">
    <th scope="row"><code>${s.url}</code></th>
    <td data-label="Kinds">
      ${s.kinds.join(", ")}<br /><span class="muted" data-subscription-pool
        >${s.pool === null ? "every pool" : html`only ${namedPool(s.pool, names)}`}</span
      >
    </td>
    <td data-label="State">${state}</td>
    <td data-label="Deliveries" data-deliveries>
      <span data-deliveries-text data-delivered="${s.deliveries.delivered}" data-failed="${s.deliveries.failed}"
        >${deliveriesText(s.deliveries)}</span
      >${lastError}
    </td>
    <td class="wide">
      <div class="actions">
        ${
          s.state === "paused"
            ? html`<button type="button" class="secondary" data-action="resume-alert" data-subscription-id="${s.id}">
                Resume
              </button>`
            : html`<button
                type="button"
                class="secondary"
                data-action="test-alert"
                data-subscription-id="${s.id}"
                aria-label="Send a test event to ${s.url} (${s.id})"
              >
                Send a test event
              </button>`
        }
        ${confirmFirst(
          {
            action: deleteSubscriptionPath(s.id),
            label: `Delete the subscription to ${s.url} (${s.kinds.join(", ")}; ${s.id})`,
            text: "Delete",
            kind: "delete-alert",
            id: s.id,
          },
          deleteSubscriptionQuestion(s),
        )}
      </div>
    </td>
  </tr>`;
}

/**
 * The row of a subscription just created: active, nothing delivered yet (`POST /app/api/alert-subscriptions`
 * answers it as `rowHtml`, for the client bundle to insert).
 */
export function newSubscriptionRow(
  created: Pick<SubscriptionView, "id" | "url" | "kinds" | "pool" | "createdAt">,
  names: PoolNames,
): Html {
  return subscriptionRow(
    {
      ...created,
      state: "active",
      pausedAt: null,
      pausedReason: null,
      deliveries: { pending: 0, delivered: 0, failed: 0 },
      lastError: null,
      lastErrorAt: null,
      lastDeliveredAt: null,
    },
    names,
  );
}

/**
 * The wallet's alert subscriptions (owner `wallet:<lower-case address>`): each target with its kinds and delivery
 * state (pending, delivered, failed, the last error, paused), a form that subscribes a webhook (the signing secret is
 * shown once, by the client bundle, from the answer of `POST /app/api/alert-subscriptions`), and delete and resume.
 */
export function renderAlertsPage(
  { subscriptions, kinds, pools, deleted = null }: AlertsPageParameters,
  chrome: PageChrome,
): string {
  const names = poolNames(pools);
  // Each kind with its one plain line (declared once, beside the kinds, in src/model/activityKinds.ts).
  const boxes = kinds.map(
    (kind, i) =>
      html`<li>
        <input type="checkbox" id="kind-${i}" name="kinds" value="${kind}" aria-describedby="kind-${i}-help" /><label
          for="kind-${i}"
          ><code>${kind}</code></label
        >
        <span class="help kind-help" id="kind-${i}-help">${ACTIVITY_KIND_DESCRIPTIONS[kind]}</span>
      </li>`,
  );
  const poolOptions = pools.map(
    (pool) =>
      html`<option value="${pool.id}">
        ${pool.symbol} · ${protocolName(pool.protocol)} · ${chainName(pool.chainId)}
      </option>`,
  );
  const done =
    deleted === null
      ? ""
      : notice("ok", html`<p>Subscription <code>${deleted}</code> deleted: nothing more is sent to it.</p>`);
  const body = html`${done}
    <p>
      A subscription sends each activity event of the kinds it names to a URL of yours, as a signed webhook (Standard
      Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed
      deliveries are retried with backoff; after the last retry the subscription pauses until you resume it. "Send a
      test event" queues one <code>alert.test</code> event for that subscription only, signed and delivered like any
      other (it is never published in the activity log): one at a time per subscription.
    </p>
    <section aria-labelledby="subscribe-heading">
      <h2 id="subscribe-heading">Subscribe a webhook</h2>
      <div class="notice ok" data-new-secret hidden tabindex="-1">
        <p data-new-secret-title><strong>Subscribed.</strong></p>
        <p><strong>The signing secret, shown once.</strong> Keep it to check each delivery's signature.</p>
        ${copyField("new-secret", "Secret", html`data-new-secret-value`)}
        <p><a href="#subscriptions-heading">See it in your subscriptions</a> or subscribe another below.</p>
      </div>
      <p class="status" role="status" data-alert-status></p>
      <form class="stack" data-alert-form novalidate>
        <div class="field">
          <label for="alert-url">Target URL</label>
          <input
            id="alert-url"
            name="url"
            type="url"
            required
            placeholder="https://hooks.example.com/in"
            autocomplete="off"
            spellcheck="false"
          />
          <p class="field-error" id="alert-url-error"></p>
        </div>
        <fieldset id="alert-kinds">
          <legend>Event kinds</legend>
          <ul class="picker">
            ${boxes}
          </ul>
          <p class="field-error" id="alert-kinds-error"></p>
        </fieldset>
        <div class="field">
          <label for="alert-pool">Pool</label>
          <select id="alert-pool" name="pool" aria-describedby="alert-pool-help">
            <option value="">Every pool</option>
            ${poolOptions}
          </select>
          <p class="help" id="alert-pool-help">
            One pool: only the events about it are sent (ingestion passes and registry events are about no pool).
          </p>
          <p class="field-error" id="alert-pool-error"></p>
        </div>
        <button type="submit">Subscribe</button>
      </form>
    </section>
    <section aria-labelledby="subscriptions-heading">
      <h2 id="subscriptions-heading">Your subscriptions</h2>
      ${scrollTable(
        "Alert subscriptions of this wallet, oldest first",
        html`<tr>
          <th scope="col">Target</th>
          <th scope="col">Kinds</th>
          <th scope="col">State</th>
          <th scope="col">Deliveries</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>`,
        subscriptions.map((s) => subscriptionRow(s, names)),
        "No subscription yet.",
        true,
      )}
      <p class="status" role="status" data-alert-row-status></p>
    </section>
    ${confirmDialog()}`;
  return renderPage({ page: "alerts", title: "Alert subscriptions", chrome, body });
}
