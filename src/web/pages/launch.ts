import type { GetLaunchPositionReturnType } from "../../read/getLaunchPosition";
import { scrollTable } from "../components";
import { formatNumber } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

const STATUS_TEXT = { clear: "clear", "not-clear": "not clear", unmeasured: "unmeasured" } as const;

/**
 * The launch gates (the `getLaunchPosition` reader of `GET /api/v1/launch`): each gate in dependency order with its
 * measure, threshold and status, and the gate holding the launch. Like the API, the page shows no date.
 */
export function renderLaunchPage(data: GetLaunchPositionReturnType, chrome: PageChrome): string {
  const holding = data.gates.find((gate) => gate.id === data.holding);
  const rows = data.gates.map(
    (gate, i) => html`<tr${gate.id === data.holding ? html` class="holding"` : ""}>
<td class="num">${i + 1}</td>
<th scope="row">${gate.title}<br><code class="muted">${gate.id}</code>${gate.id === data.holding ? html` <span class="tag holding">holding</span>` : ""}</th>
<td><span class="tag gate-${gate.status}">${STATUS_TEXT[gate.status]}</span></td>
<td class="num">${gate.measured === null ? "—" : formatNumber(gate.measured, 2)}</td>
<td class="num">${gate.comparison === "atLeast" ? "≥" : "≤"} ${gate.threshold === null ? "—" : formatNumber(gate.threshold, 2)} ${gate.unit}</td>
<td>${gate.detail}${gate.after.length > 0 ? html`<br /><span class="muted">after ${gate.after.join(", ")}</span>` : ""}</td>
</tr>`,
  );
  const body = html`<p class="lead">${data.market.title}</p>
    <p>
      ${
        holding === undefined
          ? html`<strong>Every gate is clear.</strong>`
          : html`Holding the launch: <strong>${holding.title}</strong> (<code>${holding.id}</code>), the first gate in
              dependency order that is not clear.`
      }
    </p>
    ${scrollTable(
      "Launch gates, in dependency order",
      html`<tr>
        <th scope="col" class="num">#</th>
        <th scope="col">Gate</th>
        <th scope="col">Status</th>
        <th scope="col" class="num">Measured</th>
        <th scope="col" class="num">Threshold</th>
        <th scope="col">Detail</th>
      </tr>`,
      rows,
    )}`;
  return renderPage({ page: "launch", title: "Launch gates", chrome, body });
}
