import type { GetRoadmapReturnType } from "../../read/getRoadmap";
import { formatNumber } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

const COUNT_LABELS: Record<string, string> = {
  poolsTracked: "pools tracked",
  poolsAttested: "pools attested",
  attestationsIssued: "attestations issued",
  claimsPending: "claims pending",
  claimsGraded: "claims graded",
  attestersBonded: "attesters bonded",
  liquidityRequestsReceived: "liquidity requests received",
  eventsLogged: "events logged",
  campaignsTracked: "campaigns tracked",
  ingestPasses: "ingestion passes",
};

/** The roadmap (the `getRoadmap` reader of `GET /api/v1/roadmap`): each item, its status and its store counts. */
export function renderRoadmapPage(data: GetRoadmapReturnType, chrome: PageChrome): string {
  const items = data.items.map(
    (item) =>
      html`<li class="card">
        <h2 class="h3">${item.title}</h2>
        <p><span class="tag status-${item.status}">${item.status}</span> <code class="muted">${item.id}</code></p>
        <ul class="counts">
          ${Object.entries(item.counts).map(
            ([name, value]) =>
              html`<li>
                <strong>${value === null ? "unknown" : formatNumber(value)}</strong> ${COUNT_LABELS[name] ?? name}
              </li>`,
          )}
        </ul>
      </li>`,
  );
  const body = html`<p>
      What is shipped, being built and planned. The counts are computed from the store when this page is requested;
      "unknown" means the store cannot tell yet (not zero).
    </p>
    <ol class="cards">
      ${items}
    </ol>`;
  return renderPage({ page: "roadmap", title: "Roadmap", chrome, body });
}
