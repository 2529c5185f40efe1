import type { ComparePoolsReturnType } from "../../read/comparePools";
import { DIMENSIONS } from "../../read/internal/poolDimensions";
import type { PoolListItem } from "../../read/listPools";
import { notice, poolLabel, poolNames, scrollTable, staleList, type PoolNames } from "../components";
import { chainName, formatUsd, protocolName } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";
import { DIMENSION_LABELS, formatDimension, yieldOf } from "./liquidityMap";

/** How many pools the comparison takes (the API's limit). */
export const COMPARE_MAX = 4;

export type ComparePageParameters = {
  /** Every tracked pool, for the picker (the `listPools` reader). */
  pools: readonly PoolListItem[];
  /** The ids asked for, as given. */
  selected: readonly string[];
  /** The comparison (the `comparePools` reader of `GET /api/v1/compare`), or null when nothing is picked yet. */
  result: ComparePoolsReturnType | null;
  /** A refusal to show instead of the result (too many pools, a repeated pool...). */
  error: string | null;
};

/**
 * The compare page: a picker of up to four pools (checkboxes; the client bundle stops a fifth), then one column per
 * pool in the order picked, one row per field, and the column(s) holding the largest fresh value of each field
 * marked. Nothing is ranked or ordered by value.
 */
export function renderComparePage(parameters: ComparePageParameters, chrome: PageChrome): string {
  const { result, error } = parameters;
  const body = html`${picker(parameters)} ${error === null ? "" : notice("error", html`<p>${error}</p>`)}
  ${result === null ? "" : table(result, poolNames(parameters.pools))}`;
  return renderPage({ page: "compare", title: "Compare pools", chrome, body });
}

function picker({ pools, selected }: ComparePageParameters): Html {
  const chosen = new Set(selected.map((id) => id.toLowerCase()));
  const boxes = pools.map(
    (pool, i) =>
      html`<li>
        <input
          type="checkbox"
          id="pick-${i}"
          name="pools"
          value="${pool.id}"
          ${chosen.has(pool.id) ? html` checked` : ""}
        />
        <label for="pick-${i}">${pool.symbol} ${pickerWhere(pool)}</label>
      </li>`,
  );
  return html`<form method="get" action="/app/compare" data-compare-form>
    <fieldset>
      <legend>Pick up to ${COMPARE_MAX} pools</legend>
      <ul class="picker">
        ${boxes}
      </ul>
      <p class="status" role="status" data-compare-status></p>
    </fieldset>
    <button type="submit">Compare</button>
  </form>`;
}

function table(result: ComparePoolsReturnType, names: PoolNames): Html {
  const head = html`<tr>
    <th scope="col">Field</th>
    ${result.pools.map((pool) => html`<th scope="col">${poolLabel(pool)}</th>`)}
  </tr>`;
  const rows = DIMENSIONS.map((field) => {
    const largest = new Set(result.largest[field]);
    const cells = result.pools.map((pool) => {
      const stale = pool.staleFields.includes(field);
      const mark = largest.has(pool.id);
      return html`<td class="num${mark ? " largest" : ""}${stale ? " stale-value" : ""}">
        ${field === "yieldPct" ? yieldOf(pool) : formatUsd(pool[field])}${
          mark ? html` <span class="tag largest">largest</span>` : ""
        }${stale ? html` <span class="tag stale">stale</span>` : ""}
      </td>`;
    });
    return html`<tr>
      <th scope="row">${DIMENSION_LABELS[field]}</th>
      ${cells}
    </tr>`;
  });
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">Side by side</h2>
    <p>
      Columns keep the order you picked. "largest" marks the column holding the largest <em>fresh</em> value of a field
      (every column of a tie); a stale value is never marked. Nothing is ranked.
    </p>
    ${scrollTable("Pools compared, field by field", head, rows)}
    <h3>Held out (stale)</h3>
    ${staleList(result.stale, result.asOf, formatDimension, names)}
  </section>`;
}

/** A picked pool's venue and chain, after its symbol on the same line (its label reads "WETH-USDC · Uniswap V2 · …"). */
function pickerWhere(pool: PoolListItem): Html {
  return html`<span class="muted">· ${protocolName(pool.protocol)} · ${chainName(pool.chainId)}</span>`;
}
