import type { GetRoadmapReturnType } from "../../read/getRoadmap";
import { formatNumber } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** Each count's words, singular and plural ("1 attester bonded", "2 attesters bonded"). */
const COUNT_LABELS: Record<string, [string, string]> = {
  poolsTracked: ["pool tracked", "pools tracked"],
  poolsAttested: ["pool attested", "pools attested"],
  attestationsIssued: ["attestation issued", "attestations issued"],
  claimsPending: ["claim pending", "claims pending"],
  claimsGraded: ["claim graded", "claims graded"],
  attestersBonded: ["attester bonded", "attesters bonded"],
  liquidityRequestsReceived: ["liquidity request received", "liquidity requests received"],
  eventsLogged: ["event logged", "events logged"],
  campaignsTracked: ["campaign tracked", "campaigns tracked"],
  ingestPasses: ["ingestion pass", "ingestion passes"],
};

/** A count's words in the number its value asks for ("unknown" takes the plural). */
function countLabel(name: string, value: number | null): string {
  const label = COUNT_LABELS[name];
  if (label === undefined) return name;
  return value === 1 ? label[0] : label[1];
}

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
                <strong>${value === null ? "unknown" : formatNumber(value)}</strong> ${countLabel(name, value)}
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
