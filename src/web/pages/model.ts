import type { CalibrationBucket } from "../../model/evaluateModel";
import type { GetAccuracyReturnType } from "../../read/getAccuracy";
import type { GetModelEvaluationReturnType } from "../../read/getModelEvaluation";
import { reliabilityChart } from "../charts/reliabilityChart";
import { namedPool, notice, scrollTable, type PoolNames } from "../components";
import { formatConfidence, formatNumber, formatShare, formatTime, formatUsd } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

const three = (value: number | null) => (value === null ? "—" : value.toFixed(3));
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * The model page (docs/model.md): the backtest (the `getModelEvaluation` reader of `GET /api/v1/model`): the Brier
 * score beside the baseline's, a reliability diagram (confidence against hold rate, with bucket sizes) with its table,
 * the per-horizon table, and a few sample claims linking to their pools' history; and beside it the live record (the
 * `getAccuracy` reader of `GET /api/v1/accuracy`): the signed claims graded so far, in words and side by side with the
 * backtest, with their own calibration buckets (effective n, 90 % intervals) and horizons.
 */
export function renderModelPage(
  data: GetModelEvaluationReturnType,
  accuracy: GetAccuracyReturnType,
  chrome: PageChrome,
  names: PoolNames = new Map(),
): string {
  const e = data.evaluation;
  const intro = html`<p>
    What a confidence is worth. For every tracked pool and past day, the claim the model <code>${data.model}</code>
    would have made using only the days up to it, its floor half the depth that day's attestation states (half the day's
    low when none was issued), scored once its window closed: it failed when an observed daily low fell below the floor;
    else a window with a day not observed is void (counted, not scored); else it held. This judges the model on past
    data; it grades no issued attestation.
  </p>`;
  if (e === null) {
    const body = html`${intro}${notice("info", "Not computed yet: the service computes it after its next issuing pass.")}
    ${liveRecordSection(accuracy, null)}`;
    return renderPage({ page: "model", title: "Model", chrome, body });
  }
  const beats = e.brier !== null && e.baselineBrier !== null && e.brier < e.baselineBrier;
  const summary = html`<dl class="facts">
      <div>
        <dt>Brier score (lower is better)</dt>
        <dd><strong>${three(e.brier)}</strong></dd>
      </div>
      <div>
        <dt>Baseline (climatology, knowable on each claim's day)</dt>
        <dd>${three(e.baselineBrier)}</dd>
      </div>
      <div>
        <dt>Claims scored / made</dt>
        <dd>${formatNumber(e.scored)} / ${formatNumber(e.claims)}</dd>
      </div>
      <div>
        <dt>Held</dt>
        <dd>${formatNumber(e.held)}${e.scored > 0 ? ` (${percent(e.held / e.scored)})` : ""}</dd>
      </div>
      <div>
        <dt>Void (a window day not observed)</dt>
        <dd>${formatNumber(e.void)}</dd>
      </div>
      <div>
        <dt>Data up to</dt>
        <dd>${e.asOf ?? "—"} · computed ${formatTime(data.computedAt)}</dd>
      </div>
    </dl>
    <p>
      ${e.brier === null ? "Nothing is scored yet." : beats ? "The model beats the baseline." : "The model does not beat the baseline."}
    </p>`;
  const body = html`${intro}
    <section aria-labelledby="score-heading">
      <h2 id="score-heading">Backtest score</h2>
      ${summary}
    </section>
    ${liveRecordSection(accuracy, e)} ${versionsSection(data)} ${calibrationSection(e)} ${horizonSection(e)}
    ${sampleSection(e, names)}`;
  return renderPage({ page: "model", title: "Model", chrome, body });
}

type Evaluation = NonNullable<GetModelEvaluationReturnType["evaluation"]>;

/** Whether every bucket of at least 30 claims holds within 0.10 of its mean confidence. */
function calibrated(e: Evaluation): boolean {
  return e.buckets.every((b) => b.n < 30 || Math.abs(b.holdRate - b.meanConfidence) <= 0.1);
}

/** Every model version side by side on the same data: its rule, its Brier score beside the baseline, calibration. */
function versionsSection(data: GetModelEvaluationReturnType): Html {
  const rows = data.versions.map((v) => {
    const e = v.evaluation;
    return html`<tr>
      <th scope="row"><code>${v.model}</code>${v.issuing ? html` <span class="tag">issuing</span>` : ""}</th>
      <td>${v.rule}</td>
      <td class="num">${e === null ? "—" : formatNumber(e.scored)}</td>
      <td class="num">${e === null ? "—" : three(e.brier)}</td>
      <td class="num">${e === null ? "—" : three(e.baselineBrier)}</td>
      <td>${e === null || e.brier === null ? "—" : calibrated(e) ? "yes" : "no"}</td>
    </tr>`;
  });
  return html`<section aria-labelledby="versions-heading">
    <h2 id="versions-heading">Versions side by side</h2>
    ${scrollTable(
      "Model versions evaluated on the same data",
      html`<tr>
        <th scope="col">Version</th>
        <th scope="col">Rule</th>
        <th scope="col" class="num">Scored</th>
        <th scope="col" class="num">Brier</th>
        <th scope="col" class="num">Baseline</th>
        <th scope="col">Calibrated (every bucket ≥ 30 within 0.10)</th>
      </tr>`,
      rows,
    )}
  </section>`;
}

/** The calibration buckets as a table: the text equivalent of a reliability diagram. */
function bucketTable(caption: string, buckets: readonly CalibrationBucket[]): Html {
  const bucketRows = buckets.map(
    (b) =>
      html`<tr>
        <td>${formatConfidence(b.from)}–${formatConfidence(b.to)}</td>
        <td class="num">${formatNumber(b.n)}</td>
        <td class="num">${formatShare(b.meanConfidence)}</td>
        <td class="num">${formatNumber(Math.round(b.effectiveN))}</td>
        <td class="num">${percent(b.holdRate)}</td>
        <td class="num">${percent(b.interval90.low)}–${percent(b.interval90.high)}</td>
        <td class="num">${b.n >= 30 ? (Math.abs(b.holdRate - b.meanConfidence) <= 0.1 ? "yes" : "no") : "too few"}</td>
      </tr>`,
  );
  return scrollTable(
    caption,
    html`<tr>
      <th scope="col">Confidence</th>
      <th scope="col" class="num">Claims</th>
      <th scope="col" class="num">Mean confidence</th>
      <th scope="col" class="num">Effective claims</th>
      <th scope="col" class="num">Held</th>
      <th scope="col" class="num">Held, 90 % interval</th>
      <th scope="col" class="num">Within 0.10 (≥ 30 claims)</th>
    </tr>`,
    bucketRows,
    "No scored claim yet.",
  );
}

/** The reliability diagram and its bucket table. */
function calibrationSection(e: Evaluation): Html {
  return html`<section aria-labelledby="calibration-heading">
    <h2 id="calibration-heading">Calibration</h2>
    ${reliabilityChart({
      id: "reliability",
      caption:
        "Mean confidence of each bucket against the share of its claims that held; the diagonal is perfect calibration, a dot's size its number of claims.",
      buckets: e.buckets,
    })}
    ${bucketTable("Calibration buckets", e.buckets)}
  </section>`;
}

/** A share as a percentage of a whole, or nothing when the whole is 0. */
const shareOf = (part: number, whole: number) => (whole > 0 ? ` (${percent(part / whole)})` : "");

/**
 * The live record: the claims this attester signed, graded once their window closed (`getAccuracy`), in plain words,
 * side by side with the backtest (`e`, null when not computed), then its calibration buckets and horizons.
 */
function liveRecordSection(a: GetAccuracyReturnType, e: Evaluation | null): Html {
  const scored = a.held + a.failed;
  const words =
    a.graded === 0
      ? html`<p data-live-summary>
          No signed claim is graded yet. A claim is graded once, the day after its window closes, from the pool's
          observed daily lows (docs/model.md#grading); until then it is pending.
        </p>`
      : html`<p data-live-summary>
          Of <strong>${formatNumber(a.graded)}</strong> claims graded, <strong>${formatNumber(a.held)} held</strong>,
          <strong>${formatNumber(a.failed)} failed</strong> and ${formatNumber(a.void)} ${a.void === 1 ? "was" : "were"}
          void (a window day not observed: counted, not scored).
          ${
            scored > 0
              ? html`Of the ${formatNumber(scored)} scored, ${percent(a.held / scored)} held; their Brier score is
                  <strong>${three(a.brier)}</strong>${e === null ? "" : html` (the backtest's: ${three(e.brier)})`}.`
              : "None is scored yet (all void)."
          }
          The last graded claim settled on ${a.asOf ?? "—"}.
        </p>`;
  const row = (label: string, backtest: string, live: string) =>
    html`<tr>
      <th scope="row">${label}</th>
      <td class="num" data-label="Backtest">${backtest}</td>
      <td class="num" data-label="Live record">${live}</td>
    </tr>`;
  const dash = "—";
  const rows = [
    // The backtest's claims whose window closed (its `claims` also counts open windows): scored or void.
    row("Claims graded", e === null ? dash : formatNumber(e.scored + e.void), formatNumber(a.graded)),
    row("Scored (held or failed)", e === null ? dash : formatNumber(e.scored), formatNumber(scored)),
    row(
      "Held",
      e === null ? dash : `${formatNumber(e.held)}${shareOf(e.held, e.scored)}`,
      `${formatNumber(a.held)}${shareOf(a.held, scored)}`,
    ),
    row(
      "Failed",
      e === null ? dash : `${formatNumber(e.scored - e.held)}${shareOf(e.scored - e.held, e.scored)}`,
      `${formatNumber(a.failed)}${shareOf(a.failed, scored)}`,
    ),
    row("Void (not scored)", e === null ? dash : formatNumber(e.void), formatNumber(a.void)),
    row("Brier score (lower is better)", e === null ? dash : three(e.brier), three(a.brier)),
    row("Data up to", e === null ? dash : (e.asOf ?? dash), a.asOf ?? dash),
  ];
  const horizonRows = a.byHorizon.map(
    (h) =>
      html`<tr>
        <td class="num">${h.horizon} days</td>
        <td class="num">${formatNumber(h.n)}</td>
        <td class="num">${percent(h.holdRate)}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="live-heading" data-live-record>
    <h2 id="live-heading">Live record: the claims this attester signed</h2>
    <p>
      The backtest above judges the model on past data. The live record grades what was actually signed: every claim (a
      pool's first attestation of a UTC day) whose window has closed, once, from the observed daily lows, by the same
      rule, scored the same way (<a href="/api/v1/accuracy"><code>GET /api/v1/accuracy</code></a
      >; each pool's claims and grades are on its page).
    </p>
    ${words}
    ${scrollTable(
      "The backtest and the live record side by side",
      html`<tr>
        <th scope="col">Figure</th>
        <th scope="col" class="num">Backtest</th>
        <th scope="col" class="num">Live record</th>
      </tr>`,
      rows,
      "Nothing to compare yet.",
      true,
    )}
    ${
      a.buckets.length === 0
        ? ""
        : html`<h3>Live calibration</h3>
            ${reliabilityChart({
              id: "live-reliability",
              caption:
                "The signed claims graded so far: mean confidence of each bucket against the share that held; the diagonal is perfect calibration, a dot's size its number of claims.",
              buckets: a.buckets,
            })}
            ${bucketTable("Live calibration buckets (signed claims)", a.buckets)}
            ${scrollTable(
              "Graded signed claims by horizon",
              html`<tr>
                <th scope="col" class="num">Horizon</th>
                <th scope="col" class="num">Claims</th>
                <th scope="col" class="num">Held</th>
              </tr>`,
              horizonRows,
              "No scored claim yet.",
            )}`
    }
  </section>`;
}

/** Scored claims by horizon. */
function horizonSection(e: Evaluation): Html {
  const horizonRows = e.byHorizon.map(
    (h) =>
      html`<tr>
        <td class="num">${h.horizon} days</td>
        <td class="num">${formatNumber(h.n)}</td>
        <td class="num">${percent(h.holdRate)}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="horizon-heading">
    <h2 id="horizon-heading">By horizon</h2>
    ${scrollTable(
      "Scored claims by horizon",
      html`<tr>
        <th scope="col" class="num">Horizon</th>
        <th scope="col" class="num">Claims</th>
        <th scope="col" class="num">Held</th>
      </tr>`,
      horizonRows,
      "No scored claim yet.",
    )}
  </section>`;
}

/** The first sample claims, each linking to its pool. */
function sampleSection(e: Evaluation, names: PoolNames): Html {
  const sampleRows = e.sample.slice(0, 20).map(
    (c) =>
      html`<tr>
        <td>${namedPool(c.pool, names)}</td>
        <td>${c.asOf}</td>
        <td class="num">${c.horizon} days</td>
        <td class="num">${formatConfidence(c.confidence)}</td>
        <td class="num">${formatUsd(c.floorUsd)}</td>
        <td>${c.held ? "held" : "broke"}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="sample-heading">
    <h2 id="sample-heading">Sample claims</h2>
    <p>
      ${formatNumber(e.sample.length)} scored claims are in <code>GET /api/v1/model</code>; the first 20 are below. Each
      can be recomputed from the pool's daily lows in <code>GET /api/v1/pool/{pool}/history</code>.
    </p>
    ${scrollTable(
      "Sample of scored claims",
      html`<tr>
        <th scope="col">Pool</th>
        <th scope="col">As of</th>
        <th scope="col" class="num">Horizon</th>
        <th scope="col" class="num">Confidence</th>
        <th scope="col" class="num">Floor</th>
        <th scope="col">Outcome</th>
      </tr>`,
      sampleRows,
      "No scored claim yet.",
      true,
    )}
  </section>`;
}
