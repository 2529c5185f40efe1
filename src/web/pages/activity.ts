import { ACTIVITY_KINDS, ACTIVITY_KIND_DESCRIPTIONS } from "../../model/activityKinds";
import type { GetActivityReturnType } from "../../read/getActivity";
import { namedPool, scrollTable, type PoolNames } from "../components";
import { formatTime } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

export type ActivityPageParameters = {
  page: GetActivityReturnType;
  /** The cursor this page was read below (null: the newest page). */
  cursor: string | null;
  limit: number;
  /** The kinds the page is filtered to (empty: every kind), as the reader took them. */
  kinds: readonly string[];
  /** The tracked pools by id (from `listPools`), to name each event's pool. */
  names: PoolNames;
};

/** A kind's one plain line (declared beside the kinds), or "" for a name outside the list. */
function describe(kind: string): string {
  return (ACTIVITY_KIND_DESCRIPTIONS as Record<string, string | undefined>)[kind] ?? "";
}

/** The page's URL with its limit and kind filter (and a cursor, for the older pages). */
function activityHref(limit: number, kinds: readonly string[], cursor: string | null = null): string {
  const query = new URLSearchParams({ limit: String(limit) });
  if (kinds.length > 0) query.set("kind", kinds.join(","));
  if (cursor !== null) query.set("cursor", cursor);
  return `/app/activity?${query.toString()}`;
}

/** Every kind but the ingestion passes, which are most of the log. */
const ALL_BUT_PASSES = ACTIVITY_KINDS.filter((kind) => kind !== "ingest.pass");

/** The kind filter: a GET form of checkboxes (none ticked: every kind), folded away unless a filter is on. */
function kindFilter(limit: number, kinds: readonly string[]): Html {
  const chosen = new Set(kinds);
  const boxes = ACTIVITY_KINDS.map(
    (kind, i) =>
      html`<li>
        <input
          type="checkbox"
          id="filter-kind-${i}"
          name="kind"
          value="${kind}"
          ${chosen.has(kind) ? html`checked` : ""}
          aria-describedby="filter-kind-${i}-help"
        /><label for="filter-kind-${i}"><code>${kind}</code></label>
        <span class="help kind-help" id="filter-kind-${i}-help">${ACTIVITY_KIND_DESCRIPTIONS[kind]}</span>
      </li>`,
  );
  const showing =
    kinds.length === 0
      ? html`every kind`
      : html`${kinds.map((kind, i) => html`${i > 0 ? ", " : ""}<code>${kind}</code>`)}`;
  return html`<p data-activity-showing>Showing: ${showing}.</p>
    <details class="filter" ${kinds.length > 0 ? html`open` : ""}>
      <summary>Filter by kind</summary>
      <form method="get" action="/app/activity" class="filter">
        <input type="hidden" name="limit" value="${limit}" />
        <fieldset>
          <legend>Kinds to show</legend>
          <p class="help">Tick none to see every kind.</p>
          <ul class="picker">
            ${boxes}
          </ul>
        </fieldset>
        <div class="actions">
          <button type="submit">Show these kinds</button>
          <a class="button secondary" href="${activityHref(limit, ALL_BUT_PASSES)}">All but ingestion passes</a>
          <a class="button secondary" href="${activityHref(limit, [])}">Every kind</a>
        </div>
      </form>
    </details>`;
}

/**
 * The activity log (the `getActivity` reader of `GET /api/v1/activity`), newest first, paged by the API's own opaque
 * cursor: "Older events" follows `next`; "Newest" goes back to the first page. A GET form filters by kind (the API's
 * `kind`), and the paging links keep the filter. On a phone each event is a block (`stack`).
 */
export function renderActivityPage(
  { page, cursor, limit, kinds, names }: ActivityPageParameters,
  chrome: PageChrome,
): string {
  const rows = page.events.map(
    (event) =>
      html`<tr>
        <td class="num" data-label="#">${event.id}</td>
        <td data-label="When">
          <time datetime="${new Date(event.at * 1000).toISOString()}">${formatTime(event.at)}</time>
        </td>
        <td data-label="Kind" class="wide"><code title="${describe(event.kind)}">${event.kind}</code></td>
        <td data-label="What" class="wide">
          ${event.summary}${event.poolId === null ? "" : html`<br />${namedPool(event.poolId, names)}`}
        </td>
      </tr>`,
  );
  const older =
    page.next === null
      ? html`<span class="muted">This page reaches the oldest event${kinds.length > 0 ? " of these kinds" : ""}.</span>`
      : html`<a class="button" rel="next" href="${activityHref(limit, kinds, page.next)}">Older events</a>`;
  const body = html`<p>
      Every event the service logged, newest first, ${limit} per page. New events appear on the newest page only, so
      following "Older events" never skips or repeats one.
    </p>
    ${kindFilter(limit, kinds)}
    ${scrollTable(
      cursor === null ? "Newest events" : "Older events",
      html`<tr>
        <th scope="col" class="num">#</th>
        <th scope="col">When</th>
        <th scope="col">Kind</th>
        <th scope="col">What</th>
      </tr>`,
      rows,
      kinds.length === 0 ? "No event logged yet." : "No event of these kinds.",
      true,
      "events",
    )}
    <nav class="pager" aria-label="Activity pages">
      ${cursor === null ? "" : html`<a class="button secondary" href="${activityHref(limit, kinds)}">Newest</a>`}
      ${older}
    </nav>`;
  return renderPage({ page: "activity", title: "Activity", chrome, body });
}
