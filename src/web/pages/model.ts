import type { CalibrationBucket } from "../../model/evaluateModel";
import { DEFAULT_CANDIDATES } from "../../model/horizon";
import type { GetAccuracyReturnType } from "../../read/getAccuracy";
import type { GetModelEvaluationReturnType } from "../../read/getModelEvaluation";
import { reliabilityChart } from "../charts/reliabilityChart";
import { namedPool, notice, scrollTable, type PoolNames } from "../components";
import { formatConfidence, formatNumber, formatShare, formatTime, formatUsd } from "../format";
import { html, type Html } from "../html";
import { renderPage, type PageChrome } from "../layout";

const three = (value: number | null) => (value === null ? "—" : value.toFixed(3));

/** A difference of Brier scores, signed, four decimals. */
const difference = (value: number) => `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(4)}`;

/**
 * Where the model stands against the climatology by the 90 % interval of their Brier difference: wholly below 0 better
 * by more than chance, wholly above 0 worse by more than chance, across 0 level within chance; null when not known.
 */
export function baselineStanding(interval: { low: number; high: number } | null): "better" | "level" | "worse" | null {
  if (interval === null) return null;
  return interval.high < 0 ? "better" : interval.low > 0 ? "worse" : "level";
}

/** The page's sentence on the baseline: whether the model's Brier score is lower, and by more than chance or not. */
export function baselineVerdict(beats: boolean, interval: { low: number; high: number } | null): string {
  const verdict = beats ? "The model beats the baseline" : "The model does not beat the baseline";
  const standing = baselineStanding(interval);
  if (interval === null || standing === null) return `${verdict}.`;
  const range = `its Brier score minus the baseline's is ${difference(interval.low)} to ${difference(interval.high)} (90 % interval, the pools taken as the independent units)`;
  if (standing === "better") return `${verdict}, by more than chance: ${range}.`;
  if (standing === "worse") return `${verdict}: it scores worse, by more than chance: ${range}.`;
  return `${verdict}, but the two are level within chance: ${range}.`;
}
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
    const body = html`${plainAnswer(null, accuracy)} ${intro}
    ${notice("info", "Not computed yet: the service computes it after its next issuing pass.")}
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
    <p>${e.brier === null ? "Nothing is scored yet." : baselineVerdict(beats, e.brierDifference90)}</p>`;
  const body = html`${plainAnswer(e, accuracy)} ${intro}
    <section aria-labelledby="score-heading">
      <h2 id="score-heading">Backtest score</h2>
      ${summary}
    </section>
    ${liveRecordSection(accuracy, e)} ${versionsSection(data)} ${calibrationSection(e)} ${horizonSection(e)}
    ${sampleSection(e, names)}`;
  return renderPage({ page: "model", title: "Model", chrome, body });
}

type Evaluation = NonNullable<GetModelEvaluationReturnType["evaluation"]>;

/**
 * A bucket is calibrated when its mean confidence lies inside the 90 % interval of its hold rate: the gap between what
 * was promised and what held is no larger than chance explains.
 */
export function bucketVerdict(b: CalibrationBucket): "calibrated" | "over-confident" | "under-confident" {
  if (b.meanConfidence >= b.interval90.low && b.meanConfidence <= b.interval90.high) return "calibrated";
  return b.holdRate < b.meanConfidence ? "over-confident" : "under-confident";
}

/** Whether every bucket is calibrated ({@link bucketVerdict}). */
function calibrated(e: Evaluation): boolean {
  return e.buckets.every((b) => bucketVerdict(b) === "calibrated");
}

/** One bucket in a sentence: "Claims made at 80–85 % held 83.5 % of the time (1,234 claims): calibrated …". */
export function bucketSentence(b: CalibrationBucket): string {
  const verdict = bucketVerdict(b);
  const gap =
    verdict === "calibrated"
      ? "calibrated: the promise is inside the 90 % interval of what held"
      : `${verdict}: their mean confidence, ${percent(b.meanConfidence)}, is outside the 90 % interval of what held`;
  return `Claims made at ${Math.round(b.from * 100)}–${formatConfidence(b.to)} held ${percent(b.holdRate)} of the time (${plural(b.n, "claim")}; 90 % interval ${percent(b.interval90.low)}–${percent(b.interval90.high)}): ${gap}.`;
}

/** `1 claim`, `2 claims`. */
function plural(count: number, noun: string): string {
  return `${formatNumber(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The page's first answer, before any score: what a confidence promises, and how often claims made at each confidence
 * held, in the backtest and in the live record.
 */
function plainAnswer(e: Evaluation | null, live: GetAccuracyReturnType): Html {
  const list = (buckets: readonly CalibrationBucket[]) =>
    html`<ul>
      ${buckets.filter((b) => b.n > 0).map((b) => html`<li>${bucketSentence(b)}</li>`)}
    </ul>`;
  return html`<section aria-labelledby="answer-heading" data-plain-answer>
    <h2 id="answer-heading">What a confidence promises, and how it did</h2>
    <p>
      A claim at 85 % confidence promises that of many such claims about 85 in 100 hold: the depth stays at or above the
      floor for the whole horizon. Not a promise about any one claim.
    </p>
    ${
      e !== null && e.buckets.some((b) => b.n > 0)
        ? html`<p>In the backtest (the model replayed on past days):</p>
            ${list(e.buckets)}`
        : html`<p>The backtest has scored no claim yet.</p>`
    }
    ${
      live.buckets.some((b) => b.n > 0)
        ? html`<p>In the live record (the claims actually signed, graded once their window closed):</p>
            ${list(live.buckets)}`
        : html`<p>No signed claim is graded yet.</p>`
    }
  </section>`;
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
      <td>${e === null ? "—" : (baselineStanding(e.brierDifference90) ?? "—")}</td>
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
        <th scope="col">Vs. baseline</th>
        <th scope="col">Calibrated (every bucket's promise inside its 90 % interval)</th>
      </tr>`,
      rows,
    )}
    <p>
      Vs. baseline: better or worse where the 90 % interval of the Brier score minus the baseline's (the pools taken as
      the independent units) lies wholly below or above 0; level where it spans 0.
    </p>
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
        <td>${bucketVerdict(b)}</td>
      </tr>`,
  );
  const table = scrollTable(
    caption,
    html`<tr>
      <th scope="col">Confidence</th>
      <th scope="col" class="num">Claims</th>
      <th scope="col" class="num">Mean confidence</th>
      <th scope="col" class="num">Effective claims</th>
      <th scope="col" class="num">Held</th>
      <th scope="col" class="num">Held, 90 % interval</th>
      <th scope="col">Verdict</th>
    </tr>`,
    bucketRows,
    "No scored claim yet.",
  );
  return html`<p class="muted">
      Verdict: <em>calibrated</em> when the bucket's mean confidence lies inside the 90 % interval of its hold rate (the
      gap is no larger than chance explains); <em>over-confident</em> when it lies above, <em>under-confident</em> when
      below.
    </p>
    ${table}`;
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
  const horizonRows = horizonTableRows(a.byHorizon);
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

/**
 * The rows of a by-horizon table: every horizon the model offers (and any other scored), a horizon without a scored
 * claim named as never scored rather than left out.
 */
function horizonTableRows(byHorizon: readonly { horizon: number; n: number; holdRate: number }[]): Html[] {
  const scored = new Map(byHorizon.map((h) => [h.horizon, h]));
  const horizons = [...new Set<number>([...DEFAULT_CANDIDATES, ...scored.keys()])].sort((a, b) => a - b);
  return horizons.map((horizon) => {
    const h = scored.get(horizon);
    return h === undefined || h.n === 0
      ? html`<tr class="never-scored">
          <td class="num">${horizon} days</td>
          <td class="num">0</td>
          <td class="num">never scored</td>
        </tr>`
      : html`<tr>
          <td class="num">${horizon} days</td>
          <td class="num">${formatNumber(h.n)}</td>
          <td class="num">${percent(h.holdRate)}</td>
        </tr>`;
  });
}

/** Scored claims by horizon. */
function horizonSection(e: Evaluation): Html {
  const horizonRows = horizonTableRows(e.byHorizon);
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

/** How many sample claims the page lists. */
const SAMPLE_ROWS = 20;

/**
 * Up to `count` claims spread across pools: each pool's newest first, one pool after another in turn, so that a
 * sample ordered by pool does not show one pool only.
 */
export function spreadAcrossPools<T extends { pool: string; asOf: string }>(claims: readonly T[], count: number): T[] {
  const byPool = new Map<string, T[]>();
  for (const claim of claims) byPool.set(claim.pool, [...(byPool.get(claim.pool) ?? []), claim]);
  const queues = [...byPool.values()].map((list) => [...list].sort((a, b) => b.asOf.localeCompare(a.asOf)));
  const out: T[] = [];
  for (let round = 0; out.length < count && queues.some((queue) => queue.length > round); round++) {
    for (const queue of queues) if (round < queue.length && out.length < count) out.push(queue[round]);
  }
  return out;
}

/** Sample claims spread across pools, each linking to its pool. */
function sampleSection(e: Evaluation, names: PoolNames): Html {
  const sampleRows = spreadAcrossPools(e.sample, SAMPLE_ROWS).map(
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
      ${formatNumber(e.sample.length)} scored claims are in <code>GET /api/v1/model</code>; ${SAMPLE_ROWS} of them, from
      as many pools as there are (each pool's newest first), are below. Each can be recomputed from the pool's daily
      lows in <code>GET /api/v1/pool/{pool}/history</code>.
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
