import type { ListWalletLiquidityRequestsReturnType } from "../../read/listWalletLiquidityRequests";
import type { PoolListItem } from "../../read/listPools";
import { namedPool, poolNames, scrollTable } from "../components";
import { chainName, countOf, formatTime, formatUsd, protocolName } from "../format";
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
 * The liquidity requests page: the signed-in wallet's own requests (written with API keys it created, or by itself
 * here), and a form that submits a new one as the signed-in wallet (`POST /app/api/liquidity-requests`: the keyed
 * write's rules, no API key asked for); the confirmation after it says what was requested.
 */
export function renderLiquidityRequestsPage(parameters: LiquidityRequestsPageParameters, chrome: PageChrome): string {
  const { own, created } = parameters;
  const names = poolNames(parameters.pools);
  // The confirmation says what was asked for (amount, horizon, pool or asset), not only the request's id.
  const just = created === null ? undefined : own.requests.find((r) => r.id === created);
  const confirmation =
    just === undefined
      ? ""
      : html`<div class="notice ok" data-request-created tabindex="-1">
          <p>
            <strong>Request stored:</strong> ${formatUsd(just.amountUsd)} for ${countOf(just.horizonDays, "day")} on
            ${just.pool === null ? html`asset <code>${just.asset}</code> on ${chainName(just.chainId)}` : namedPool(just.pool, names)}${just.note === null ? "" : html`, with the note “${just.note}”`}.
            It is listed below <span class="muted">(id <code>${just.id}</code>)</span>.
          </p>
        </div>`;
  const rows = own.requests.map(
    (r) => html`<tr${r.id === created ? html` class="just-created"` : ""}>
<th scope="row">${r.pool === null ? html`asset <code>${r.asset}</code> on ${chainName(r.chainId)}` : namedPool(r.pool, names)}</th>
<td data-label="When"><time datetime="${new Date(r.createdAt * 1000).toISOString()}">${formatTime(r.createdAt)}</time></td>
<td data-label="Amount" class="num">${formatUsd(r.amountUsd)}</td>
<td data-label="Horizon" class="num">${countOf(r.horizonDays, "day")}</td>
<td data-label="Note">${r.note ?? html`<span class="muted">—</span>`}</td>
<td data-label="Sent with">${
      r.apiKeyId.startsWith("wallet:")
        ? html`this wallet, signed in`
        : html`${r.keyLabel ?? html`<span class="muted">unlabelled key</span>`}<br /><code class="muted"
              >${r.apiKeyId}</code
            >`
    }</td>
</tr>`,
  );
  const body = html`${confirmation}
    <section aria-labelledby="own-heading">
      <h2 id="own-heading">Your requests</h2>
      <p>
        Requests this wallet sent here, or with any API key it created (<a href="/app/keys">API keys</a>), newest first.
      </p>
      ${scrollTable(
        "Your liquidity requests",
        html`<tr>
          <th scope="col">Pool or asset</th>
          <th scope="col">When</th>
          <th scope="col" class="num">Amount</th>
          <th scope="col" class="num">Horizon</th>
          <th scope="col">Note</th>
          <th scope="col">Sent with</th>
        </tr>`,
        rows,
        "No request yet: use the form below.",
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
      You are signed in, so no API key is needed: the request is sent as this wallet, with the same rules as the keyed
      <code>POST /api/v1/liquidity-requests</code> that other clients use with an <a href="/app/keys">API key</a>.
    </p>
    <form class="stack" data-request-form novalidate>
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
