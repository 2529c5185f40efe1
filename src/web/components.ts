import { chainName, formatAge, formatTime } from "./format";
import { html, type Html } from "./html";

/** The page of one pool (its qualified id in the path). */
export function poolHref(id: string): string {
  return `/app/pools/${encodeURIComponent(id)}`;
}

/** A pool's name linking to its page, with its qualified id as the link's description. */
export function poolLink(pool: { id: string; symbol: string }): Html {
  return html`<a href="${poolHref(pool.id)}">${pool.symbol}</a>`;
}

/** "fresh" or "stale" as a tag: the word is the signal, the colour only repeats it. */
export function freshnessTag(stale: boolean): Html {
  return stale ? html`<span class="tag stale">stale</span>` : html`<span class="tag fresh">fresh</span>`;
}

/** A chain's name with its id. */
export function chainLabel(chainId: number): Html {
  return html`${chainName(chainId)} <span class="muted">(${chainId})</span>`;
}

/** An observation time with its age, in a `<time>` element. */
export function observed(seconds: number | null, now: number): Html {
  if (seconds === null) return html`<span class="muted">never observed</span>`;
  const iso = new Date(seconds * 1000).toISOString();
  return html`<time datetime="${iso}" title="${formatTime(seconds)}">${formatAge(seconds, now)}</time>`;
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
 * the activity log's compact blocks, without the names).
 */
export function scrollTable(
  caption: string,
  head: Html,
  rows: readonly Html[],
  empty = "Nothing to list.",
  stack = false,
  variant: "events" | null = null,
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

/** The stale values held out of a surface's totals, listed beside them (`[]` → a sentence saying there are none). */
export function staleList(
  stale: readonly { id: string; field: string; value: number | null; observedAt: number | null }[],
  now: number,
  format: (field: string, value: number | null) => string,
): Html {
  if (stale.length === 0) return html`<p class="muted">No stale value: every measured figure is in the totals.</p>`;
  const rows = stale.map(
    (entry) =>
      html`<tr>
        <td><code>${entry.id}</code></td>
        <td>${entry.field}</td>
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
