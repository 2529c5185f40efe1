import type { GetLaunchPositionReturnType } from "../../read/getLaunchPosition";
import { scrollTable, withPoolNames, type PoolNames } from "../components";
import { NOT_MEASURED, formatNumber, formatShare, usdAmount } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

const STATUS_TEXT = { clear: "clear", "not-clear": "not clear", unmeasured: "unmeasured" } as const;

/** A gate's figure in its unit: a compact amount for USD, a percentage for a share, else the number and the unit. */
function gateFigure(value: number | null, unit: string): Html | string {
  if (value === null) return NOT_MEASURED;
  if (unit === "USD") return usdAmount(value);
  if (unit === "share") return formatShare(value);
  // The units are plural nouns ("attesters", "days"): one of them is singular.
  return `${formatNumber(value, 2)} ${value === 1 && unit.endsWith("s") ? unit.slice(0, -1) : unit}`;
}

/**
 * The launch gates (the `getLaunchPosition` reader of `GET /api/v1/launch`): each gate in dependency order with its
 * measure, threshold and status, and the gate holding the launch. Like the API, the page shows no date.
 */
export function renderLaunchPage(data: GetLaunchPositionReturnType, chrome: PageChrome, names: PoolNames): string {
  const holding = data.gates.find((gate) => gate.id === data.holding);
  const rows = data.gates.map(
    (gate, i) => html`<tr${gate.id === data.holding ? html` class="holding"` : ""}>
<td class="num">${i + 1}</td>
<th scope="row">${gate.title}<br><code class="muted">${gate.id}</code>${gate.id === data.holding ? html` <span class="tag holding">holding</span>` : ""}</th>
<td><span class="tag gate-${gate.status}">${STATUS_TEXT[gate.status]}</span></td>
<td class="num">${gateFigure(gate.measured, gate.unit)}</td>
<td class="num">${gate.comparison === "atLeast" ? "≥" : "≤"} ${gateFigure(gate.threshold, gate.unit)}</td>
<td>${withPoolNames(gate.detail, names)}${gate.after.length > 0 ? html`<br /><span class="muted">after ${gate.after.join(", ")}</span>` : ""}</td>
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
