import type { ListWalletApiKeysReturnType, WalletApiKey } from "../../read/listWalletApiKeys";
import { scrollTable } from "../components";
import { formatTime } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** One row of the keys table (also the `rowHtml` of `POST /app/api/keys`, which the client bundle inserts). */
export function apiKeyRow(key: WalletApiKey): Html {
  const label = key.label ?? "unlabelled";
  return html`<tr data-key-id="${key.id}">
    <th scope="row">${key.label ?? html`<span class="muted">unlabelled</span>`}</th>
    <td data-label="Id"><code>${key.id}</code></td>
    <td data-label="Created">${formatTime(key.createdAt)}</td>
    <td data-label="State" data-key-state>
      ${key.revokedAt === null ? html`<span class="tag fresh">active</span>` : html`<span class="tag stale">revoked</span> ${formatTime(key.revokedAt)}`}
    </td>
    <td>
      ${key.revokedAt === null ? html`<button type="button" class="danger" data-action="revoke-key" data-key-id="${key.id}" aria-label="Revoke key ${label}">Revoke</button>` : ""}
    </td>
  </tr>`;
}

/**
 * The wallet's API keys (the `listWalletApiKeys` reader, also `GET /app/api/keys`): create one (the key is shown
 * once, by the client bundle, from the answer of `POST /app/api/keys`), list them, revoke one
 * (`DELETE /app/api/keys/{id}`). A key works with every keyed route, like an `API_KEYS` key, until it is revoked.
 */
export function renderApiKeysPage(data: ListWalletApiKeysReturnType, chrome: PageChrome): string {
  const body = html`<p>
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
      </form>
      <p class="status" role="status" data-key-status></p>
      <div class="notice ok" data-new-key hidden>
        <p><strong>Your new key, shown once.</strong> Copy it now: it cannot be read back.</p>
        <p>
          <label for="new-key">Key</label> <input id="new-key" class="key" type="text" readonly data-new-key-value />
        </p>
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
    </section>`;
  return renderPage({ page: "keys", title: "API keys", chrome, body });
}
