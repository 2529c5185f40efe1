import type { ListPoolsReturnType, PoolListItem } from "../../read/listPools";
import { freshnessTag, observed, poolLabel, scrollTable } from "../components";
import { NOT_MEASURED, chainName, countOf, formatConfidence, protocolName, usdAmount } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** The columns the pools list sorts by (`?sort=`); without one it keeps the reader's order, chain then address. */
export const POOL_SORTS = ["name", "depth", "horizon", "confidence"] as const;
export type PoolSort = (typeof POOL_SORTS)[number];

/** The pools list's view: sorting and filters, all in the query string so that they work without JavaScript. */
export type PoolsView = {
  sort?: PoolSort;
  /** Default: ascending for the name, descending for the figures. */
  order?: "asc" | "desc";
  /** Only this chain. */
  chain?: number;
  /** Only this venue (the pool's `protocol`). */
  protocol?: string;
  /**
   * Search: only pools whose name (its tokens), protocol (id or display name), chain (name or id) or id contains every
   * word of it, any case.
   */
  q?: string;
  /** Only the pools on the signed-in wallet's watchlist. */
  watchlist?: boolean;
};

/** The words a pool is found by: its symbol and tokens, protocol id and name, chain name and id, and its id. */
function searchText(pool: PoolListItem): string {
  return [
    pool.symbol,
    pool.protocol,
    protocolName(pool.protocol),
    chainName(pool.chainId),
    String(pool.chainId),
    pool.id,
  ]
    .join(" ")
    .toLowerCase();
}

/** Whether a pool matches a search: every word of `q` is in its {@link searchText}. */
export function matchesSearch(pool: PoolListItem, q: string): boolean {
  const text = searchText(pool);
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => text.includes(word));
}

const SORT_LABELS: Record<PoolSort, string> = {
  name: "Name",
  depth: "Depth",
  horizon: "Horizon",
  confidence: "Confidence",
};

/** The default direction of a sort: names A to Z, figures largest first. */
function defaultOrder(sort: PoolSort): "asc" | "desc" {
  return sort === "name" ? "asc" : "desc";
}

/** A pool's value for a figure sort (null is "none", always listed last). */
function figure(pool: PoolListItem, sort: Exclude<PoolSort, "name">): number | null {
  return sort === "depth" ? pool.depthUsd : pool[sort];
}

/**
 * The pools of the list after the view's filters, in the view's order. Pools without the sorted figure come last in
 * either direction; ties keep the name, then the id.
 */
export function viewPools(
  pools: readonly PoolListItem[],
  view: PoolsView,
  watched: ReadonlySet<string> = new Set(),
): PoolListItem[] {
  const shown = pools.filter(
    (pool) =>
      (view.chain === undefined || pool.chainId === view.chain) &&
      (view.protocol === undefined || pool.protocol === view.protocol) &&
      (view.q === undefined || matchesSearch(pool, view.q)) &&
      (view.watchlist !== true || watched.has(pool.id)),
  );
  const { sort } = view;
  if (sort === undefined) return shown;
  const sign = (view.order ?? defaultOrder(sort)) === "asc" ? 1 : -1;
  const byName = (a: PoolListItem, b: PoolListItem) =>
    a.symbol.localeCompare(b.symbol, "en", { sensitivity: "base" }) || a.id.localeCompare(b.id);
  return shown.sort((a, b) => {
    if (sort === "name") return sign * byName(a, b);
    const [x, y] = [figure(a, sort), figure(b, sort)];
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
    return sign * (x - y) || byName(a, b);
  });
}

/** The list's URL for a view (only the parameters that are set). */
export function poolsHref(view: PoolsView): string {
  const query = new URLSearchParams();
  if (view.sort !== undefined) query.set("sort", view.sort);
  if (view.sort !== undefined && view.order !== undefined) query.set("order", view.order);
  if (view.chain !== undefined) query.set("chain", String(view.chain));
  if (view.protocol !== undefined) query.set("protocol", view.protocol);
  if (view.q !== undefined) query.set("q", view.q);
  if (view.watchlist === true) query.set("watchlist", "1");
  const text = query.toString();
  return text === "" ? "/app/pools" : `/app/pools?${text}`;
}

/**
 * The pools page: every tracked pool with its depth, observation time and stale flag, and its latest attestation's
 * horizon and confidence (the `listPools` reader of `GET /api/v1/pools`), the fresh total, and the stale depths held
 * out of it; sorted and filtered on the server by the query string (`sort`, `order`, `chain`, `protocol`).
 */
export function renderPoolsPage(
  data: ListPoolsReturnType,
  chrome: PageChrome,
  view: PoolsView = {},
  watched: ReadonlySet<string> = new Set(),
): string {
  const shown = viewPools(data.pools, view, watched);
  // Horizon and confidence come first after the pool's name: on a phone's card they are the first thing read.
  const rows = shown.map(
    (pool) => html`<tr${pool.stale ? html` class="is-stale"` : ""}>
<th scope="row">${watchToggle(pool, watched.has(pool.id), "list")} ${poolLabel(pool, { idLine: true })}</th>
${
  pool.noAttestationReason === null
    ? html`<td data-label="Horizon" class="num">${claimHorizon(pool, data.asOf)}</td>
        <td data-label="Confidence" class="num">${formatConfidence(pool.confidence)}</td>`
    : html`<td data-label="Horizon and confidence" colspan="2" class="wide no-claim">
        ${noAttestation(pool.noAttestationReason)}
      </td>`
}
<td data-label="Depth" class="num">${usdAmount(pool.depthUsd)}</td>
<td data-label="Observed">${observed(pool.observedAt, data.asOf)}</td>
<td data-label="Status">${freshnessTag(pool.stale)}</td>
<td data-label="Kind">${pool.kind}</td>
</tr>`,
  );
  const filtered =
    view.chain !== undefined || view.protocol !== undefined || view.q !== undefined || view.watchlist === true;
  const body = html`<p>
      Horizon and confidence are those of each pool's latest attestation; a pool without one says why. Depth is what
      each pool holds now. A depth observed longer ago than the freshness window
      (${Math.round(data.freshnessWindowS / 60)} min) is <strong>stale</strong>: it is never summed and is listed beside
      the total.
    </p>
    <dl class="figures">
      <div>
        <dt>Fresh total depth</dt>
        <dd>${usdAmount(data.total.depthUsd)} <span class="muted">(${countOf(data.total.pools, "pool")})</span></dd>
      </div>
      <div>
        <dt>Held out (stale)</dt>
        <dd>
          ${usdAmount(data.heldOut.depthUsd)} <span class="muted">(${countOf(data.heldOut.pools.length, "pool")})</span>
        </dd>
      </div>
    </dl>
    ${viewForm(data.pools, view, watched.size)}
    <p class="muted">
      ${filtered ? `Showing ${shown.length} of ${countOf(data.pools.length, "pool")}. ` : ""}${sortedBy(view)} The
      totals above cover every tracked pool.
    </p>
    ${scrollTable(
      "Tracked pools",
      html`<tr>
        ${sortHeader("Pool", "name", view)} ${sortHeader("Horizon", "horizon", view)}
        ${sortHeader("Confidence", "confidence", view)} ${sortHeader("Depth", "depth", view)}
        <th scope="col">Observed</th>
        <th scope="col">Status</th>
        <th scope="col">Kind</th>
      </tr>`,
      rows,
      view.watchlist === true && watched.size === 0
        ? "Your watchlist is empty: star a pool (☆) to add it."
        : filtered
          ? "No pool matches these filters."
          : "No pool is tracked yet.",
      true,
    )}`;
  // The star buttons POST forms here: their `Origin` (the CSRF rule) needs the same-origin referrer policy.
  return renderPage({ page: "pools", title: "Pools", chrome, body, referrerPolicy: "same-origin" });
}

/** "Sorted by …" for the status line. */
function sortedBy(view: PoolsView): string {
  if (view.sort === undefined) return "Listed by chain, then address.";
  const order = view.order ?? defaultOrder(view.sort);
  return `Sorted by ${SORT_LABELS[view.sort].toLowerCase()}, ${order === "asc" ? "ascending" : "descending"}.`;
}

/**
 * A sortable column's header: a link to the list sorted by it (the other direction when it is already the sort), and
 * `aria-sort` on the sorted column.
 */
function sortHeader(label: string, sort: PoolSort, view: PoolsView): Html {
  const current = view.sort === sort ? (view.order ?? defaultOrder(sort)) : null;
  const next = current === null ? defaultOrder(sort) : current === "asc" ? "desc" : "asc";
  const ariaSort = current === null ? "" : html` aria-sort="${current === "asc" ? "ascending" : "descending"}"`;
  const arrow = current === null ? "" : current === "asc" ? " ↑" : " ↓";
  const numeric = sort === "name" ? "" : html` class="num"`;
  return html`<th scope="col" ${numeric}${ariaSort}>
    <a class="sort" href="${poolsHref({ ...view, sort, order: next })}"
      >${label}<span aria-hidden="true">${arrow}</span></a
    >
  </th>`;
}

/** The filters and the sort as a GET form (the phone's way to sort too: a stacked table hides its header). */
function viewForm(pools: readonly PoolListItem[], view: PoolsView, watchedCount: number): Html {
  const chains = [...new Set(pools.map((pool) => pool.chainId))].sort((a, b) => a - b);
  const protocols = [...new Set(pools.map((pool) => pool.protocol))].sort();
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}" ${selected ? html` selected` : ""}>${label}</option>`;
  const sort = view.sort;
  const order = sort === undefined ? undefined : (view.order ?? defaultOrder(sort));
  const clear =
    view.chain !== undefined ||
    view.protocol !== undefined ||
    sort !== undefined ||
    view.q !== undefined ||
    view.watchlist === true;
  // Folded away unless a filter, a search or a sort is on, so that on a phone the first pool starts on the first screen.
  return html`<details class="filter view" ${clear ? html`open` : ""}>
    <summary>Search, sort and filter</summary>
    <form class="inline filters" method="get" action="/app/pools">
      <span class="filter">
        <label for="filter-chain">Chain</label>
        <select id="filter-chain" name="chain">
          ${option("", "All chains", view.chain === undefined)}
          ${chains.map((id) => option(String(id), `${chainName(id)} (${id})`, view.chain === id))}
        </select>
      </span>
      <span class="filter">
        <label for="filter-protocol">Protocol</label>
        <select id="filter-protocol" name="protocol">
          ${option("", "All protocols", view.protocol === undefined)}
          ${protocols.map((p) => option(p, protocolName(p), view.protocol === p))}
        </select>
      </span>
      <span class="filter">
        <label for="view-sort">Sort by</label>
        <select id="view-sort" name="sort">
          ${option("", "Chain, then address", sort === undefined)}
          ${POOL_SORTS.map((s) => option(s, SORT_LABELS[s], sort === s))}
        </select>
      </span>
      <span class="filter">
        <label for="view-order">Order</label>
        <select id="view-order" name="order">
          ${option("", "Default", order === undefined)} ${option("asc", "Ascending", order === "asc")}
          ${option("desc", "Descending", order === "desc")}
        </select>
      </span>
      <span class="filter search">
        <label for="filter-q">Search</label>
        <input
          id="filter-q"
          type="search"
          name="q"
          value="${view.q ?? ""}"
          maxlength="100"
          placeholder="token, protocol, chain"
          autocomplete="off"
        />
      </span>
      <span class="filter watch">
        <input
          id="filter-watchlist"
          type="checkbox"
          name="watchlist"
          value="1"
          ${view.watchlist === true ? html`checked` : ""}
        />
        <label for="filter-watchlist">Only my watchlist (${countOf(watchedCount, "pool")})</label>
      </span>
      <button type="submit">Show</button>
      ${clear ? html`<a href="/app/pools">Clear</a>` : ""}
    </form>
  </details>`;
}

/** The path that stars (`watch`) or unstars (`unwatch`) a pool; `back=list` returns to the list, else to the pool. */
export function watchPath(id: string, watched: boolean, back: "list" | "pool"): string {
  return `/app/pools/${encodeURIComponent(id)}/${watched ? "unwatch" : "watch"}${back === "list" ? "?back=list" : ""}`;
}

/**
 * The star toggle: a form that POSTs (works without JavaScript; the server answers 303 back), its button saying what
 * it does and `aria-pressed` saying whether the pool is on the watchlist.
 */
export function watchToggle(pool: { id: string; symbol: string }, watched: boolean, back: "list" | "pool"): Html {
  const title = watched ? `On your watchlist: press to remove ${pool.symbol}` : `Add ${pool.symbol} to your watchlist`;
  const name = back === "list" ? html` aria-label="Watch ${pool.symbol}"` : "";
  return html`<form class="watch-toggle" method="post" action="${watchPath(pool.id, watched, back)}">
    <button type="submit" aria-pressed="${watched ? "true" : "false"}" title="${title}" ${name} data-watch>
      <span aria-hidden="true">${watched ? "★" : "☆"}</span>${back === "pool" ? " Watch" : ""}
    </button>
  </form>`;
}

/** The latest claim's horizon in days, marked when its attestation has expired; a dash when none was issued. */
function claimHorizon(pool: { horizon: number | null; expiry: number | null }, now: number) {
  if (pool.horizon === null) return NOT_MEASURED;
  const days = `${pool.horizon} ${pool.horizon === 1 ? "day" : "days"}`;
  return pool.expiry !== null && pool.expiry <= now ? html`${days}<br /><span class="muted">expired</span>` : days;
}

/**
 * Why a pool has no attestation, in a few words (the reader's sentence, `noAttestationReason`, is the cell's title and
 * the pool page's): "confidence 69 %, below the 80 % target", "insufficient history", "stale depth", "depth never observed".
 */
export function shortNoAttestationReason(reason: string): string {
  const belowTarget = /confidence (\d+)%.*below the (\d+(?:\.\d+)?)% target/.exec(reason);
  if (belowTarget) return `confidence ${belowTarget[1]} %, below the ${belowTarget[2]} % target`;
  const campaign = /campaign ends in (\d+) days/.exec(reason);
  if (campaign) return `an incentive campaign ends in ${campaign[1]} ${campaign[1] === "1" ? "day" : "days"}`;
  if (/^insufficient history/.test(reason)) return "insufficient history";
  if (/^its depth has not been observed/.test(reason)) return "depth never observed";
  if (/^its last depth observation is older|^no fresh depth observation/.test(reason)) return "stale depth";
  if (/^no current depth/.test(reason)) return "no current depth";
  if (/^no issuing pass has judged/.test(reason)) return "no issuing pass yet";
  return reason.replace(/\.$/, "");
}

/** A pool's "no attestation" cell: the reason in a few words, the reader's whole sentence as its title. */
function noAttestation(reason: string): Html {
  return html`<span class="no-claim-reason" title="${reason}"
    >No attestation: ${shortNoAttestationReason(reason)}</span
  >`;
}
