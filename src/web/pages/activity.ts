import type { GetActivityReturnType } from "../../read/getActivity";
import { poolHref, scrollTable } from "../components";
import { formatTime } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

export type ActivityPageParameters = {
  page: GetActivityReturnType;
  /** The cursor this page was read below (null: the newest page). */
  cursor: string | null;
  limit: number;
};

/**
 * The activity log (the `getActivity` reader of `GET /api/v1/activity`), newest first, paged by the API's own opaque
 * cursor: "Older events" follows `next`; "Newest" goes back to the first page.
 */
export function renderActivityPage({ page, cursor, limit }: ActivityPageParameters, chrome: PageChrome): string {
  const rows = page.events.map(
    (event) =>
      html`<tr>
        <td class="num">${event.id}</td>
        <td><time datetime="${new Date(event.at * 1000).toISOString()}">${formatTime(event.at)}</time></td>
        <td><code>${event.kind}</code></td>
        <td>
          ${event.summary}${event.poolId === null ? "" : html`<br /><a href="${poolHref(event.poolId)}"><code>${event.poolId}</code></a>`}
        </td>
      </tr>`,
  );
  const older =
    page.next === null
      ? html`<span class="muted">This page reaches the oldest event.</span>`
      : html`<a class="button" rel="next" href="/app/activity?limit=${limit}&amp;cursor=${page.next}">Older events</a>`;
  const body = html`<p>
      Every event the service logged, newest first, ${limit} per page. New events appear on the newest page only, so
      following "Older events" never skips or repeats one.
    </p>
    ${scrollTable(
      cursor === null ? "Newest events" : "Older events",
      html`<tr>
        <th scope="col" class="num">#</th>
        <th scope="col">When</th>
        <th scope="col">Kind</th>
        <th scope="col">What</th>
      </tr>`,
      rows,
      "No event logged yet.",
    )}
    <nav class="pager" aria-label="Activity pages">
      ${cursor === null ? "" : html`<a class="button secondary" href="/app/activity?limit=${limit}">Newest</a>`}
      ${older}
    </nav>`;
  return renderPage({ page: "activity", title: "Activity", chrome, body });
}
