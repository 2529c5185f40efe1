import { chainName, formatAge, protocolName, timeTag } from "./format";
import { html, type Html } from "./html";

/** The page of one pool (its qualified id in the path). */
export function poolHref(id: string): string {
  return `/app/pools/${encodeURIComponent(id)}`;
}

/** What names a pool on a page: its qualified id, chain, symbol and venue (every reader's pool identity has them). */
export type PoolName = { id: string; chainId: number; symbol: string; protocol: string };

/** Tracked pools by qualified id (lower case), to name the pools a reader gives only by id. */
export type PoolNames = ReadonlyMap<string, PoolName>;

/** The {@link PoolNames} of a list of pools (e.g. the `listPools` reader's). */
export function poolNames(pools: readonly PoolName[]): PoolNames {
  return new Map(pools.map((pool) => [pool.id.toLowerCase(), pool]));
}

/**
 * THE label of a pool on every page: `symbol · protocol · chain`, linking to the pool's page, its raw qualified id as
 * the link's title (and, with `idLine`, on a small code line below). A raw `eip155:…` id is never the only label.
 */
export function poolLabel(pool: PoolName, { idLine = false }: { idLine?: boolean } = {}): Html {
  const id = idLine ? html`<br /><code class="id">${pool.id}</code>` : "";
  return html`<a class="pool-label" href="${poolHref(pool.id)}" title="${pool.id}"
      ><span class="pool-symbol">${pool.symbol}</span> · ${protocolName(pool.protocol)} · ${chainName(pool.chainId)}</a
    >${id}`;
}

const POOL_ID = /eip155:([0-9]{1,12}):(0x[0-9a-fA-F]{40})/g;

/**
 * A pool named by its qualified id: its {@link poolLabel} when `names` knows it; otherwise (a pool that is not
 * tracked, e.g. in a liquidity request) its short address and chain, the full id as the title, marked "not tracked".
 */
export function namedPool(id: string, names: PoolNames, options: { idLine?: boolean } = {}): Html {
  const known = names.get(id.toLowerCase());
  if (known !== undefined) return poolLabel(known, options);
  const parsed = new RegExp(`^${POOL_ID.source}$`).exec(id);
  if (parsed === null) return html`<code>${id}</code>`;
  const [, chainId, address] = parsed;
  return html`<span class="pool-label" title="${id}"
      >pool <code>${address.slice(0, 6)}…${address.slice(-4)}</code> · ${chainName(Number(chainId))}</span
    >
    <span class="muted">(not tracked)</span>`;
}

/** Text with every qualified pool id in it replaced by the pool's label (e.g. a launch gate's detail line). */
export function withPoolNames(text: string, names: PoolNames): Html {
  const parts: (Html | string)[] = [];
  let last = 0;
  for (const match of text.matchAll(POOL_ID)) {
    parts.push(text.slice(last, match.index), namedPool(match[0], names));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

/** "fresh" or "stale" as a tag: the word is the signal, the colour only repeats it. */
export function freshnessTag(stale: boolean): Html {
  return stale ? html`<span class="tag stale">stale</span>` : html`<span class="tag fresh">fresh</span>`;
}

/** A chain's name with its id. */
export function chainLabel(chainId: number): Html {
  return html`${chainName(chainId)} <span class="muted">(${chainId})</span>`;
}

/** An observation time in the one time format, with its age beside it. */
export function observed(seconds: number | null, now: number): Html {
  if (seconds === null) return html`<span class="muted">never observed</span>`;
  return html`${timeTag(seconds)} <span class="muted age">(${formatAge(seconds, now)})</span>`;
}

/** A message box: `info`, `error` or `ok`. */
export function notice(kind: "info" | "error" | "ok", body: Html | string): Html {
  return html`<div class="notice ${kind}">${body}</div>`;
}

/**
 * A table wrapped so that it scrolls sideways on a narrow screen instead of widening the page: its frame shows a
 * shadow on the side that hides columns, and (with the client bundle) a line saying "Scroll sideways for more
 * columns". With `stack`, a phone shows each row as a block instead, every cell under its column's name (the cells
 * carry `data-label`; a cell of class `wide` spans the block's width). `variant` adds a class to the table (`events`:
 * the activity log's compact blocks, without the names; `compare`: the compare page's rows, whose cells wrap).
 */
export function scrollTable(
  caption: string,
  head: Html,
  rows: readonly Html[],
  empty = "Nothing to list.",
  stack = false,
  variant: "events" | "compare" | null = null,
): Html {
  const classes = [stack ? "stack" : "", variant ?? ""].filter((c) => c !== "").join(" ");
  return html`<div class="table-wrap" role="region" aria-label="${caption}" tabindex="0">
    <table${classes === "" ? "" : html` class="${classes}"`}>
      <caption>
        ${caption}
      </caption>
      <thead>
        ${head}
      </thead>
      <tbody>
        ${
          rows.length === 0
            ? html`<tr class="empty">
                <td colspan="20" class="muted">${empty}</td>
              </tr>`
            : rows
        }
      </tbody>
    </table>
  </div>`;
}

/** How a held-out value's field is named on the pages (the API's field name otherwise). */
const FIELD_LABELS: Record<string, string> = {
  depthUsd: "Depth",
  volume24hUsd: "24 h volume",
  yieldPct: "Yield",
  exitabilityUsd: "Exitability",
  volumeUsd: "Volume",
};

/**
 * The stale values held out of a surface's totals, listed beside them (`[]` → a sentence saying there are none), each
 * pool named by `names`.
 */
export function staleList(
  stale: readonly { id: string; field: string; value: number | null; observedAt: number | null }[],
  now: number,
  format: (field: string, value: number | null) => Html | string,
  names: PoolNames,
): Html {
  if (stale.length === 0) return html`<p class="muted">No stale value: every measured figure is in the totals.</p>`;
  const rows = stale.map(
    (entry) =>
      html`<tr>
        <th scope="row">${namedPool(entry.id, names)}</th>
        <td>${FIELD_LABELS[entry.field] ?? entry.field} <code class="muted">${entry.field}</code></td>
        <td class="num">${format(entry.field, entry.value)}</td>
        <td>${observed(entry.observedAt, now)}</td>
      </tr>`,
  );
  return scrollTable(
    "Stale values, held out of every total",
    html`<tr>
      <th scope="col">Pool</th>
      <th scope="col">Field</th>
      <th scope="col" class="num">Value</th>
      <th scope="col">Observed</th>
    </tr>`,
    rows,
  );
}

/**
 * A value shown once (a new API key, a webhook secret): its label, the read-only field and a Copy button beside it
 * (the client bundle copies the field to the clipboard and says so in the status line). The field shrinks, so the row
 * never widens a phone's page.
 *
 * @param id the field's id (the button's `data-copy` names it).
 * @param attribute the field's data attribute, as the client finds it.
 */
export function copyField(id: string, label: string, attribute: Html): Html {
  return html`<div class="copy-field">
    <label for="${id}">${label}</label>
    <div class="copy-row">
      <input id="${id}" class="key" type="text" readonly ${attribute} />
      <button type="button" class="secondary" data-copy="${id}">Copy</button>
    </div>
    <p class="status" role="status" data-copy-status="${id}"></p>
  </div>`;
}
