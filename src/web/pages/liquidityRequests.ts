import type { ListWalletLiquidityRequestsReturnType } from "../../read/listWalletLiquidityRequests";
import type { PoolListItem } from "../../read/listPools";
import { namedPool, notice, poolNames, scrollTable } from "../components";
import { chainName, formatTime, formatUsd, protocolName } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { MAX_AMOUNT_USD, MAX_HORIZON_DAYS, MAX_NOTE_LENGTH } from "../../write/parseLiquidityRequestInput";

/** The sentence under a field when it is invalid (filled by the client bundle; empty and not shown otherwise). */
const fieldError = (input: string) => html`<p class="field-error" id="${input}-error" data-field-error></p>`;

export type LiquidityRequestsPageParameters = {
  /** The wallet's own requests (the `listWalletLiquidityRequests` reader, also `GET /app/api/liquidity-requests`). */
  own: ListWalletLiquidityRequestsReturnType;
  /** Tracked pools for the form's picker (the `listPools` reader of `GET /api/v1/pools`). */
  pools: readonly PoolListItem[];
  /** The id of a request the form just wrote (shown as a confirmation when it is among the wallet's own). */
  created: string | null;
};

/**
 * The liquidity requests page: the signed-in wallet's own requests (written with API keys it created), and a form
 * that submits a new one through the keyed write `POST /api/v1/liquidity-requests` with an API key the user pastes
 * (the client bundle sends it as `Authorization: Bearer`, never to any other origin, and does not store it).
 */
export function renderLiquidityRequestsPage(parameters: LiquidityRequestsPageParameters, chrome: PageChrome): string {
  const { own, created } = parameters;
  const confirmation =
    created !== null && own.requests.some((r) => r.id === created)
      ? notice("ok", html`<p>Request <code>${created}</code> stored. It is listed below.</p>`)
      : "";
  const rows = own.requests.map(
    (r) => html`<tr${r.id === created ? html` class="just-created"` : ""}>
<th scope="row">${r.pool === null ? html`asset <code>${r.asset}</code> on ${chainName(r.chainId)}` : namedPool(r.pool, poolNames(parameters.pools))}</th>
<td data-label="When"><time datetime="${new Date(r.createdAt * 1000).toISOString()}">${formatTime(r.createdAt)}</time></td>
<td data-label="Amount" class="num">${formatUsd(r.amountUsd)}</td>
<td data-label="Horizon" class="num">${r.horizonDays} d</td>
<td data-label="Note">${r.note ?? html`<span class="muted">—</span>`}</td>
<td data-label="Key">${r.keyLabel ?? html`<span class="muted">unlabelled</span>`}<br><code class="muted">${r.apiKeyId}</code></td>
</tr>`,
  );
  const body = html`${confirmation}
    <section aria-labelledby="own-heading">
      <h2 id="own-heading">Your requests</h2>
      <p>Requests written with any API key this wallet created (<a href="/app/keys">API keys</a>), newest first.</p>
      ${scrollTable(
        "Your liquidity requests",
        html`<tr>
          <th scope="col">Pool or asset</th>
          <th scope="col">When</th>
          <th scope="col" class="num">Amount</th>
          <th scope="col" class="num">Horizon</th>
          <th scope="col">Note</th>
          <th scope="col">Key</th>
        </tr>`,
        rows,
        "No request yet: create an API key, then use the form below.",
        true,
      )}
    </section>
    ${requestForm(parameters.pools)}`;
  return renderPage({ page: "liquidity-requests", title: "Liquidity requests", chrome, body });
}

function requestForm(pools: readonly PoolListItem[]): Html {
  const options = pools.map(
    (pool) =>
      html`<option value="${pool.id}">
        ${pool.symbol} · ${chainName(pool.chainId)} · ${protocolName(pool.protocol)}
      </option>`,
  );
  return html`<section aria-labelledby="form-heading">
    <h2 id="form-heading">Ask for liquidity</h2>
    <p>
      This form sends <code>POST /api/v1/liquidity-requests</code>, the same keyed write any client uses, with the key
      you paste. The key is not stored by this page.
    </p>
    <form class="stack" data-request-form novalidate>
      <div class="field">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="apiKey"
          type="password"
          autocomplete="off"
          spellcheck="false"
          required
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" class="help">
          Paste a key from <a href="/app/keys">API keys</a> (shown once when created).
        </p>
        ${fieldError("api-key")}
      </div>
      <div class="field">
        <label for="pool">Pool</label>
        <select id="pool" name="pool">
          <option value="">None: I name an asset below</option>
          ${options}
        </select>
        ${fieldError("pool")}
      </div>
      <fieldset class="field">
        <legend>Or an asset</legend>
        <label for="asset">Token address</label>
        <input
          id="asset"
          name="asset"
          type="text"
          inputmode="text"
          autocomplete="off"
          spellcheck="false"
          placeholder="0x…"
          pattern="^0x[0-9a-fA-F]{40}$"
        />
        ${fieldError("asset")}
        <label for="chain-id">Chain id</label>
        <input id="chain-id" name="chainId" type="number" min="1" step="1" inputmode="numeric" placeholder="1" />
        ${fieldError("chain-id")}
      </fieldset>
      <div class="field">
        <label for="amount">Amount (USD)</label>
        <input
          id="amount"
          name="amountUsd"
          type="number"
          min="1"
          max="${MAX_AMOUNT_USD}"
          step="any"
          inputmode="decimal"
          required
        />
        ${fieldError("amount")}
      </div>
      <div class="field">
        <label for="horizon">Horizon (days)</label>
        <input
          id="horizon"
          name="horizonDays"
          type="number"
          min="1"
          max="${MAX_HORIZON_DAYS}"
          step="1"
          inputmode="numeric"
          required
          value="30"
        />
        ${fieldError("horizon")}
      </div>
      <div class="field">
        <label for="note">Note (optional)</label>
        <textarea id="note" name="note" rows="2" maxlength="${MAX_NOTE_LENGTH}" aria-describedby="note-help"></textarea>
        <p id="note-help" class="help warn">
          Public: the note is published in the open activity feed (<code>GET /api/v1/activity</code>, the Activity page)
          for anyone to read. Leave out anything private.
        </p>
        ${fieldError("note")}
      </div>
      <p class="status" role="status" data-request-status></p>
      <button type="submit">Send request</button>
    </form>
  </section>`;
}
