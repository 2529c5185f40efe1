import type { GetPoolAttestationReturnType } from "../../read/getPoolAttestation";
import { formatDay, formatUsd } from "../format";
import { html, type Html } from "../html";
import { axisTitles } from "./axisTitles";
import { linearScale, px } from "./scale";
import { usdAxis } from "./usdAxis";

const W = 640;
const H = 300;
const M = { top: 34, right: 20, bottom: 58, left: 80 };

/**
 * The claim's evidence window as an SVG chart: the window from issuance to `settlesAt` on the x axis, the depth at
 * issuance (dashed) and the floor (floor × depth at issuance, red) as horizontal lines, the part of the window
 * observed so far shaded, and the lowest daily depth observed inside the window as a point. Everything drawn comes
 * from the same reader as `GET /api/v1/pool/{pool}` (its `claim` and `evidence`). The figcaption is both the legend
 * and the text equivalent: it lists every figure the chart draws.
 */
export function evidenceChart(attestation: GetPoolAttestationReturnType, now: number): Html {
  const { claim, evidence } = attestation;
  const top = Math.max(claim.depthAtIssuanceUsd, evidence.lowestDepthUsd ?? 0) * 1.1;
  const { y, grid } = usdAxis(top, { left: M.left, right: W - M.right, top: M.top, bottom: H - M.bottom });
  const x = linearScale(evidence.windowStart, evidence.windowEnd, M.left, W - M.right);
  const observedEnd = Math.min(Math.max(now, evidence.windowStart), evidence.windowEnd);
  const lowest =
    evidence.lowestDepthUsd === null || evidence.lowestDepthObservedAt === null
      ? ""
      : html`<g class="lowest"
          ><title>Lowest so far: ${formatUsd(evidence.lowestDepthUsd)} on ${evidence.lowestDepthDay}</title>
          <circle cx="${px(x(evidence.lowestDepthObservedAt))}" cy="${px(y(evidence.lowestDepthUsd))}" r="7"></circle
        ></g>`;
  const nowMark =
    now > evidence.windowStart && now < evidence.windowEnd
      ? html`<line class="now" x1="${px(x(now))}" x2="${px(x(now))}" y1="${M.top}" y2="${H - M.bottom}"></line>`
      : "";
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="evidence-caption">
      <rect
        class="observed"
        x="${M.left}"
        y="${M.top}"
        width="${px(x(observedEnd) - M.left)}"
        height="${H - M.top - M.bottom}"
      ></rect>
      ${grid}
      <line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}"></line>
      <g class="issuance">
        <line
          x1="${M.left}"
          x2="${W - M.right}"
          y1="${px(y(claim.depthAtIssuanceUsd))}"
          y2="${px(y(claim.depthAtIssuanceUsd))}"
        ></line>
      </g>
      <g class="floor">
        <line
          x1="${M.left}"
          x2="${W - M.right}"
          y1="${px(y(claim.thresholdUsd))}"
          y2="${px(y(claim.thresholdUsd))}"
        ></line>
      </g>
      ${lowest} ${nowMark}
      <text class="xlabel" x="${M.left}" y="${H - M.bottom + 18}" text-anchor="start">${evidence.windowStartDate}</text>
      <text class="xlabel" x="${W - M.right}" y="${H - M.bottom + 18}" text-anchor="end">
        ${evidence.windowEndDate}
      </text>
      ${axisTitles({ left: M.left, right: W - M.right, top: M.top, bottom: H - M.bottom }, H, {
        x: `The claim's window, UTC (${attestation.horizon} days)`,
        y: "Depth (USD)",
      })}
    </svg>
    <figcaption id="evidence-caption">
      <p>The claim's window, from issuance to the day it settles. Evidence only: nothing here grades the claim.</p>
      <ul class="legend">
        <li>
          <span class="swatch observed" aria-hidden="true"></span>Window: ${evidence.windowStartDate} to
          ${evidence.windowEndDate} (${attestation.horizon}
          days)${evidence.waiting ? html`, still open; shaded up to now, ${formatDay(now)}` : ", closed"}
        </li>
        <li>
          <span class="swatch issuance" aria-hidden="true"></span>Depth at issuance:
          ${formatUsd(claim.depthAtIssuanceUsd)}
        </li>
        <li>
          <span class="swatch floor" aria-hidden="true"></span>Floor: ${claim.floor} × depth at issuance =
          ${formatUsd(claim.thresholdUsd)}
        </li>
        <li>
          <span class="swatch lowest" aria-hidden="true"></span>Lowest daily depth inside the window so far:
          ${
            evidence.lowestDepthUsd === null
              ? "none recorded yet"
              : `${formatUsd(evidence.lowestDepthUsd)} on ${evidence.lowestDepthDay}`
          }
          (${evidence.daysObserved} ${evidence.daysObserved === 1 ? "day" : "days"} observed)
        </li>
      </ul>
    </figcaption>
  </figure>`;
}
