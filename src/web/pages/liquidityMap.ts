import type { GetLiquidityMapReturnType } from "../../read/getLiquidityMap";
import type { PoolDimensions } from "../../read/internal/poolDimensions";
import { calendarChart } from "../charts/calendarChart";
import { chainLabel, freshnessTag, namedPool, poolLabel, scrollTable, staleList, type PoolNames } from "../components";
import {
  chainName,
  formatDay,
  countOf,
  formatLendingRate,
  formatPct,
  formatRate,
  formatShare,
  formatUsd,
  timeTag,
  usdAmount,
} from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** A dimension's value as the pages print it: a percent for the yield, a compact USD amount for the others. */
export function formatDimension(field: string, value: number | null): Html | string {
  return field === "yieldPct" ? formatPct(value) : usdAmount(value);
}

/**
 * A pool's yield with its basis: the feed's APY for an AMM, the supply rate (APR, as Aave states it) for a lending
 * reserve, followed there by its borrow rate and utilisation.
 */
export function yieldOf(pool: PoolDimensions): Html {
  if (pool.kind === "amm") return html`${formatRate(pool.yieldPct, "APY")}`;
  const lending = pool.lending;
  const more =
    lending === null || (lending.borrowAprPct === null && lending.utilisation === null)
      ? ""
      : html`<br /><span class="muted rates"
            >borrow ${formatLendingRate(lending.borrowAprPct)} · utilisation ${formatShare(lending.utilisation)}</span
          >`;
  return html`supply ${formatLendingRate(pool.yieldPct)}${more}`;
}

/** The column name of each dimension. */
export const DIMENSION_LABELS = {
  depthUsd: "Depth",
  volume24hUsd: "24 h volume",
  yieldPct: "Yield",
  exitabilityUsd: "Exitability",
} as const;

/** A pool's status tag: "stale" when a measured dimension is stale, "not measured" when none is measured. */
export function dimensionsTag(pool: PoolDimensions): Html {
  const measured = [pool.depthUsd, pool.volume24hUsd, pool.yieldPct, pool.exitabilityUsd].some((v) => v !== null);
  return measured ? freshnessTag(pool.stale) : html`<span class="tag unmeasured">not measured</span>`;
}

/** One dimension's cell: its value, marked when it is stale (the word "stale" is read out, the style repeats it). */
export function dimensionCell(
  pool: PoolDimensions,
  field: "depthUsd" | "volume24hUsd" | "yieldPct" | "exitabilityUsd",
): Html {
  const stale = pool.staleFields.includes(field);
  return html`<td class="num${stale ? " stale-value" : ""}" data-label="${DIMENSION_LABELS[field]}">
    ${field === "yieldPct" ? yieldOf(pool) : formatDimension(field, pool[field])}${
      stale ? html` <span class="tag stale">stale</span>` : ""
    }
  </td>`;
}

/**
 * The liquidity map (the `getLiquidityMap` reader of `GET /api/v1/liquidity-map`): per chain the fresh total depth
 * and every pool with its four dimensions (no composite score), the campaign expiry calendar as a chart and a table,
 * and every stale value held out of the totals.
 */
export function renderLiquidityMapPage(
  data: GetLiquidityMapReturnType,
  chrome: PageChrome,
  offset: number,
  names: PoolNames,
): string {
  const chains = data.chains.map((chain) => {
    const rows = chain.pools.map(
      (pool) =>
        html`<tr>
          <th scope="row">${poolLabel(pool)}<br /><span class="muted">${pool.kind}</span></th>
          ${dimensionCell(pool, "depthUsd")}${dimensionCell(pool, "volume24hUsd")}${dimensionCell(pool, "yieldPct")}${dimensionCell(pool, "exitabilityUsd")}
          <td data-label="Status">${dimensionsTag(pool)}</td>
        </tr>`,
    );
    const more =
      chain.poolsTotal > offset + chain.pools.length
        ? html`<p>
            <a href="/app/liquidity-map?offset=${offset + chain.pools.length}">Next pools</a> (${chain.poolsTotal}
            tracked on this chain)
          </p>`
        : "";
    return html`<section aria-labelledby="chain-${chain.chainId}">
      <h3 id="chain-${chain.chainId}">${chainLabel(chain.chainId)}</h3>
      <p>
        Fresh total depth: <strong>${usdAmount(chain.totalDepthUsd)}</strong> (${chain.depthPools} of
        ${countOf(chain.poolsTotal, "pool")}; ${chain.stale.length} stale
        ${chain.stale.length === 1 ? "depth" : "depths"} held out).
      </p>
      ${scrollTable(
        `Pools on ${chainName(chain.chainId)}, by id`,
        html`<tr>
          <th scope="col">Pool</th>
          <th scope="col" class="num">Depth</th>
          <th scope="col" class="num">24 h volume</th>
          <th scope="col" class="num">Yield</th>
          <th scope="col" class="num">Exitability</th>
          <th scope="col">Status</th>
        </tr>`,
        rows,
        "No pool on this page.",
        true,
      )}
      ${more}
    </section>`;
  });
  const today = formatDay(data.asOf);
  const body = html`<p>
      The four dimensions of every pool, each with its own observation time. A dash means not measured (never zero). A
      stale value is marked, left out of the chain's total, and listed at the end. Nothing here combines the dimensions
      into a score.
    </p>
    <section aria-labelledby="chains-heading">
      <h2 id="chains-heading">Depth by chain</h2>
      ${chains.length === 0 ? html`<p class="muted">No pool is tracked yet.</p>` : chains}
    </section>
    <section aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Incentive expiry calendar</h2>
      ${data.expiryCalendar.length === 0 ? html`<p class="muted">No tracked pool has an incentive campaign with an end date.</p>` : calendarChart(data.expiryCalendar, today)}
      ${calendarTable(data, names)}
    </section>
    <section aria-labelledby="stale-heading">
      <h2 id="stale-heading">Held out (stale)</h2>
      ${staleList(data.stale, data.asOf, formatDimension, names)}
    </section>`;
  return renderPage({ page: "liquidity-map", title: "Liquidity map", chrome, body });
}

/** The calendar's data: every date and pool, with exact amounts. */
function calendarTable(data: GetLiquidityMapReturnType, names: PoolNames): Html {
  const rows = data.expiryCalendar.flatMap((date) =>
    date.pools.map(
      (pool, i) =>
        html`<tr>
          ${i === 0 ? html`<th scope="rowgroup" rowspan="${date.pools.length}">${date.date}<br /><span class="muted">${formatUsd(date.depthUsd)} fresh</span></th>` : ""}
          <td>${namedPool(pool.id, names)}</td>
          <td class="num">
            ${formatUsd(pool.depthUsd)}${pool.stale ? html` <span class="tag stale">stale</span>` : ""}
          </td>
          <td>
            <ul class="plain">
              ${pool.campaigns.map((c) => html`<li>${c.name ?? c.id}: ${c.endsAt === null ? "no end date" : html`ends ${timeTag(c.endsAt)}`}</li>`)}
            </ul>
          </td>
        </tr>`,
    ),
  );
  return scrollTable(
    "Expiry calendar: each pool once, on the day its last known campaign ends",
    html`<tr>
      <th scope="col">Date</th>
      <th scope="col">Pool</th>
      <th scope="col" class="num">Depth</th>
      <th scope="col">Campaigns</th>
    </tr>`,
    rows,
    "No campaign end dates known.",
  );
}
