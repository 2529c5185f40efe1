import type { ListWalletApiKeysReturnType, WalletApiKey } from "../../read/listWalletApiKeys";
import { copyField, notice, scrollTable } from "../components";
import { formatTime } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { confirmDialog, confirmFirst, type ConfirmQuestion } from "./confirm";

/** The key's name in a sentence or a button: its label, or "unlabelled key" with the start of its id. */
function keyName(key: Pick<WalletApiKey, "id" | "label">): string {
  return key.label === null ? `unlabelled key ${key.id.slice(0, 8)}…` : `key “${key.label}”`;
}

/** The question before a key is revoked (the dialog's and the confirmation page's). */
export function revokeKeyQuestion(key: Pick<WalletApiKey, "id" | "label" | "createdAt">): ConfirmQuestion {
  return {
    title: "Revoke this API key?",
    text: `Revoke the ${key.label === null ? "unlabelled key" : `key “${key.label}”`} (id ${key.id}, created ${formatTime(key.createdAt)})? Every program that uses it gets 401 from then on, and the alert subscriptions made with it pause. This cannot be undone.`,
    confirm: "Revoke key",
  };
}

/** The page that asks before a key is revoked, without JavaScript (`GET /app/keys/{id}/revoke`). */
export function revokeKeyPath(id: string): string {
  return `/app/keys/${encodeURIComponent(id)}/revoke`;
}

/** One row of the keys table (also the `rowHtml` of `POST /app/api/keys`, which the client bundle inserts). */
export function apiKeyRow(key: WalletApiKey): Html {
  // The button's accessible name names the key by its label (or id), id and creation time: two unlabelled keys
  // never give two buttons of the same name.
  const name = `Revoke ${key.label === null ? "unlabelled key" : `key ${key.label}`} (id ${key.id.slice(0, 8)}, created ${formatTime(key.createdAt)})`;
  return html`<tr data-key-id="${key.id}">
    <th scope="row">${key.label ?? html`<span class="muted">unlabelled</span>`}</th>
    <td data-label="Id"><code>${key.id}</code></td>
    <td data-label="Created">${formatTime(key.createdAt)}</td>
    <td data-label="State" data-key-state>
      ${key.revokedAt === null ? html`<span class="tag fresh">active</span>` : html`<span class="tag stale">revoked</span> ${formatTime(key.revokedAt)}`}
    </td>
    <td>
      ${key.revokedAt === null ? confirmFirst({ action: revokeKeyPath(key.id), label: name, text: "Revoke", kind: "revoke-key", id: key.id }, revokeKeyQuestion(key)) : ""}
    </td>
  </tr>`;
}

/**
 * The wallet's API keys (the `listWalletApiKeys` reader, also `GET /app/api/keys`): create one (the key is shown
 * once, by the client bundle, from the answer of `POST /app/api/keys`), list them, revoke one after a confirmation
 * (the dialog, then `DELETE /app/api/keys/{id}`; without JavaScript the page `GET /app/keys/{id}/revoke`). `revoked`:
 * the id of a key just revoked by the confirmation page, told in a notice. A key works with every keyed route, like an `API_KEYS` key, until it is revoked.
 */
export function renderApiKeysPage(
  data: ListWalletApiKeysReturnType,
  chrome: PageChrome,
  revoked: string | null = null,
): string {
  const done = data.keys.find((key) => key.id === revoked && key.revokedAt !== null);
  const body = html`${done === undefined ? "" : notice("ok", html`<p>The ${keyName(done)} is revoked: it now answers 401 everywhere.</p>`)}
    <p>
      An API key lets a program use the keyed routes (<code>POST /api/v1/liquidity-requests</code>,
      <code>/api/v1/alert-subscriptions</code>) on behalf of this wallet; subscriptions made with a key belong to that
      key. The service keeps only its SHA-256: the key is shown once, when you create it.
    </p>
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      <form class="inline" data-key-form>
        <label for="key-label">Label (optional)</label>
        <input id="key-label" name="label" type="text" maxlength="100" autocomplete="off" />
        <button type="submit">Create key</button>
        <p class="field-error" id="key-label-error"></p>
      </form>
      <p class="status" role="status" data-key-status></p>
      <div class="notice ok" data-new-key hidden>
        <p><strong>Your new key, shown once.</strong> Copy it now: it cannot be read back.</p>
        ${copyField("new-key", "Key", html`data-new-key-value`)}
      </div>
    </section>
    <section aria-labelledby="list-heading">
      <h2 id="list-heading">Your keys</h2>
      ${scrollTable(
        "API keys of this wallet, oldest first",
        html`<tr>
          <th scope="col">Label</th>
          <th scope="col">Id</th>
          <th scope="col">Created</th>
          <th scope="col">State</th>
          <th scope="col"><span class="visually-hidden">Action</span></th>
        </tr>`,
        data.keys.map(apiKeyRow),
        "No key yet.",
        true,
      )}
    </section>
    ${confirmDialog()}`;
  return renderPage({ page: "keys", title: "API keys", chrome, body });
}
