import type { GetVolumeReturnType } from "../../read/getVolume";
import { barChart } from "../charts/barChart";
import { heatmap } from "../charts/heatmap";
import { chainLabel, namedPool, scrollTable, staleList, type PoolNames } from "../components";
import { countOf, formatNumber, formatUsd, protocolName, usdAmount } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** The windows the page offers (the API takes any 1–365). */
export const VOLUME_WINDOWS = [7, 30, 90, 365] as const;

/**
 * The volume page (the `getVolume` reader of `GET /api/v1/volume`): the daily series as a bar chart and the
 * venue-by-day heatmap, each followed by its table; totals by chain, venue and turnover; the feed's figures apart;
 * and the stale pools held out of everything.
 */
export function renderVolumePage(data: GetVolumeReturnType, chrome: PageChrome, names: PoolNames): string {
  const partial = new Set(data.days.filter((d) => !d.complete).map((d) => d.date));
  const body = html`${windowForm(data.window.days)}
    <p>
      Swap volume read from the pools' own <code>Swap</code> logs over the ${data.window.days} complete UTC days
      ${data.window.from} to ${data.window.to}. ${countOf(data.pools.counted, "pool")} counted; ${data.pools.heldOut}
      held out because their volume is stale. Today's partial day (${data.today.date}:
      ${usdAmount(data.today.volumeUsd)} so far) is never summed.
    </p>
    <section aria-labelledby="series-heading">
      <h2 id="series-heading">Daily volume</h2>
      ${barChart({
        id: "series",
        caption: `Daily swap volume, ${data.window.from} to ${data.window.to}. Lighter bars: days not complete for every counted pool; a dashed mark on the axis: no data.`,
        labels: data.days.map((d) => d.date),
        values: data.days.map((d) => d.volumeUsd),
        partial,
        valueTitle: "Swap volume of the day (USD)",
        valueName: "swap volume",
      })}
      ${scrollTable(
        "Daily volume (the chart's data)",
        html`<tr>
          <th scope="col">Day</th>
          <th scope="col" class="num">Volume</th>
          <th scope="col" class="num">Pools with a row</th>
          <th scope="col">Complete</th>
        </tr>`,
        data.days.map(
          (d) =>
            html`<tr>
              <th scope="row">${d.date}</th>
              <td class="num">${d.volumeUsd === null ? "no data" : formatUsd(d.volumeUsd)}</td>
              <td class="num">${d.pools}</td>
              <td>${d.complete ? "yes" : "no"}</td>
            </tr>`,
        ),
      )}
    </section>
    <section aria-labelledby="heatmap-heading">
      <h2 id="heatmap-heading">Venue by day</h2>
      ${heatmap({
        id: "heatmap",
        caption: "Swap volume per venue and day; darker is more. Crossed cells: no data (not zero).",
        rows: data.heatmap.venues.map(protocolName),
        columns: data.heatmap.dates,
        cells: data.heatmap.cells,
      })}
      ${heatmapTable(data)}
    </section>
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading">Totals over the window</h2>
      <div class="grid2">
        ${scrollTable(
          "By chain",
          html`<tr>
            <th scope="col">Chain</th>
            <th scope="col" class="num">Volume</th>
            <th scope="col" class="num">Pools</th>
          </tr>`,
          data.byChain.map(
            (c) =>
              html`<tr>
                <th scope="row">${chainLabel(c.chainId)}</th>
                <td class="num">${usdAmount(c.volumeUsd)}</td>
                <td class="num">${c.pools}</td>
              </tr>`,
          ),
        )}
        ${scrollTable(
          "By venue",
          html`<tr>
            <th scope="col">Venue</th>
            <th scope="col" class="num">Volume</th>
            <th scope="col" class="num">Pools</th>
          </tr>`,
          data.byVenue.map(
            (v) =>
              html`<tr>
                <th scope="row">${protocolName(v.venue)}</th>
                <td class="num">${usdAmount(v.volumeUsd)}</td>
                <td class="num">${v.pools}</td>
              </tr>`,
          ),
        )}
      </div>
      ${turnoverTable(data, names)} ${feedTables(data)}
    </section>
    <section aria-labelledby="stale-heading">
      <h2 id="stale-heading">Held out (stale)</h2>
      ${staleList(data.stale, data.asOf, (_field, value) => usdAmount(value), names)}
    </section>`;
  return renderPage({ page: "volume", title: "Volume", chrome, body });
}

function windowForm(days: number): Html {
  const options = VOLUME_WINDOWS.map(
    (n) => html`<option value="${n}" ${n === days ? html` selected` : ""}>${n} days</option>`,
  );
  return html`<form class="inline" method="get" action="/app/volume">
    <label for="days">Window</label>
    <select id="days" name="days">
      ${options}
    </select>
    <button type="submit">Show</button>
  </form>`;
}

function heatmapTable(data: GetVolumeReturnType): Html {
  const head = html`<tr>
    <th scope="col">Venue</th>
    ${data.heatmap.dates.map((d) => html`<th scope="col" class="num">${d.slice(5)}</th>`)}
  </tr>`;
  const rows = data.heatmap.venues.map(
    (venue, r) =>
      html`<tr>
        <th scope="row">${protocolName(venue)}</th>
        ${data.heatmap.cells[r].map((v) => html`<td class="num">${v === null ? "no data" : formatUsd(v)}</td>`)}
      </tr>`,
  );
  return scrollTable("Venue by day (the heatmap's data)", head, rows);
}

function turnoverTable(data: GetVolumeReturnType, names: PoolNames): Html {
  return scrollTable(
    `By turnover: 24 h volume ÷ depth, fresh pools only (${data.byTurnover.length} of ${data.byTurnoverTotal})`,
    html`<tr>
      <th scope="col">Pool</th>
      <th scope="col">Venue</th>
      <th scope="col" class="num">24 h volume</th>
      <th scope="col" class="num">Depth</th>
      <th scope="col" class="num">Turnover</th>
    </tr>`,
    data.byTurnover.map(
      (t) =>
        html`<tr>
          <th scope="row">${namedPool(t.id, names)}</th>
          <td>${protocolName(t.venue)}</td>
          <td class="num">${usdAmount(t.volume24hUsd)}</td>
          <td class="num">${usdAmount(t.depthUsd)}</td>
          <td class="num">${formatNumber(t.turnover, 3)}</td>
        </tr>`,
    ),
    "No pool has both a fresh 24 h volume and a fresh depth.",
  );
}

function feedTables(data: GetVolumeReturnType): Html {
  return scrollTable(
    "DefiLlama dex volumes over the same days (the feed's names; shown apart, never added)",
    html`<tr>
      <th scope="col">Chain</th>
      <th scope="col">Venue</th>
      <th scope="col" class="num">Volume</th>
      <th scope="col" class="num">Days</th>
    </tr>`,
    [
      ...data.feed.byChain.map(
        (c) =>
          html`<tr>
            <th scope="row">${c.chain}</th>
            <td class="muted">all</td>
            <td class="num">${usdAmount(c.volumeUsd)}</td>
            <td class="num">${c.days}</td>
          </tr>`,
      ),
      ...data.feed.byVenue.map(
        (v) =>
          html`<tr>
            <th scope="row">${v.chain}</th>
            <td>${protocolName(v.venue)}</td>
            <td class="num">${usdAmount(v.volumeUsd)}</td>
            <td class="num">${v.days}</td>
          </tr>`,
      ),
    ],
    "The feed reported nothing fresh for these days.",
  );
}
