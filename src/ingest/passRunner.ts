import { refreshModelEvaluation } from "../attest/refreshModelEvaluation";
import type { AttestationSigner } from "../attest/signer";
import type { ServiceConfig } from "../config/loadConfig";
import { errorLine } from "@attestation-registry/sdk/errors";
import type { ServiceMetrics } from "../metrics/serviceMetrics";
import type { PassFence } from "../storage/leaderLease";
import type { Store } from "../storage/openStore";
import { utcDay } from "../storage/poolDaily";
import { pruneDue, pruneStore, type PruneCounts } from "../storage/retention";
import { heartbeatFor } from "./passRun";
import { runIngestionPass, type PassReport } from "./runIngestionPass";
import type { HistoryMoment, IngestSource } from "./source";

/** Runs the service's ingestion passes over one source. */
export interface PassRunner {
  /**
   * A pass on the live chains that issues attestations: the source's `beforePass`, the pass, its `afterPass`. Under
   * `fence` (the lease and the stop signal: aborting it stops the pass, which then commits nothing more).
   */
  live(label: string, fence?: PassFence): Promise<void>;
  /**
   * A pass over one moment of the source's history, at that moment's blocks and clock: ingest only, unless the source
   * issues along its history (the demo), when it issues and grades as of that moment too.
   */
  history(moment: HistoryMoment, fence?: PassFence): Promise<void>;
}

export type CreatePassRunnerParameters = {
  config: Pick<
    ServiceConfig,
    | "attestationLifetimeS"
    | "freshnessWindowS"
    | "instanceId"
    | "ingestIntervalS"
    | "retentionDays"
    | "logConfirmations"
    | "logRangeBlocks"
    | "priceMinConfidence"
    | "feedMaxBytes"
  >;
  /** Who signs the attestations a live pass issues. */
  key: { signer: AttestationSigner };
  store: Store;
  source: IngestSource;
  log: (line: string) => void;
  /** Called before every pass: throws to abort startup. */
  checkpoint: () => void;
  /** Counts the live passes (`attest_ingest_passes_total`, their duration, the attestations issued). */
  metrics?: ServiceMetrics;
  /** Its `lastPassAt` is set when a live pass finishes (the service's status, `/readyz`). */
  status?: { lastPassAt: number | null };
};

/**
 * The ingestion pipeline as the service runs it, in one layer: the source's `beforePass`, `runIngestionPass` (read →
 * write → issue → grade, its run recorded by `./passRun`), the source's `afterPass`, then, after a live pass, the
 * model evaluation and retention. Binds them to the service's store, key, configuration (`INSTANCE_ID` on every run)
 * and source. Each pass logs one line (see {@link summarize}) and its steps indented; each live pass is counted in
 * `metrics` and sets `status.lastPassAt`.
 *
 * @param {@link CreatePassRunnerParameters}
 * @returns a {@link PassRunner}.
 */
export function createPassRunner({
  config,
  key,
  store,
  source,
  log,
  checkpoint,
  metrics,
  status,
}: CreatePassRunnerParameters): PassRunner {
  let lastPrunedAt: number | null = null;
  // The last complete day the model evaluation was computed through (null: not yet in this process).
  let evaluatedThrough: string | null = null;
  const run = async (
    label: string,
    options: {
      chains: IngestSource["chains"];
      now?: () => number;
      issue: boolean;
      before?: () => Promise<void>;
      fence?: PassFence;
    },
  ): Promise<PassReport> => {
    checkpoint();
    const started = Date.now();
    await options.before?.();
    const report = await runIngestionPass({
      store,
      pools: source.pools,
      chains: options.chains,
      feeds: source.feeds,
      registry: source.registry,
      now: options.now,
      issue: options.issue
        ? { signer: key.signer, lifetimeS: config.attestationLifetimeS, registry: source.registry ?? undefined }
        : false,
      freshnessWindowS: config.freshnessWindowS,
      log: (line: string) => log(`  ${line}`),
      instanceId: config.instanceId,
      heartbeat: heartbeatFor(config.ingestIntervalS),
      logs: { confirmations: config.logConfirmations, rangeBlocks: config.logRangeBlocks },
      priceMinConfidence: config.priceMinConfidence,
      feedOptions: { maxBytes: config.feedMaxBytes },
      fence: options.fence,
    });
    log(`${label}: ${summarize(report)} in ${Date.now() - started} ms`);
    await source.afterPass?.();
    return report;
  };
  return {
    live: async (label, fence) => {
      const timer = metrics?.ingestPassDuration.startTimer();
      let report: PassReport;
      try {
        report = await run(label, {
          chains: source.chains,
          issue: true,
          before: async () => source.beforePass?.(),
          fence,
        });
      } catch (error) {
        metrics?.ingestPasses.inc({ status: "failed" });
        throw error;
      } finally {
        timer?.();
      }
      metrics?.ingestPasses.inc({ status: report.status });
      metrics?.attestationsIssued.inc(report.issuance.filter((outcome) => outcome.action === "issued").length);
      if (status) status.lastPassAt = report.finishedAt;
      // The process that issues re-evaluates the model on what the store now holds, when that can have changed: after
      // a pass that issued, or once a new day is complete (the evaluation reads complete days only). A steady pass
      // between the two writes nothing of it. A failure is logged; the pass stands.
      const evaluatedNow = Math.floor(Date.now() / 1000);
      const through = utcDay(evaluatedNow - 86_400);
      const issued = report.issuance.some((outcome) => outcome.action === "issued");
      if (issued || through !== evaluatedThrough) {
        await refreshModelEvaluation(store.db, { now: evaluatedNow }).then(
          (evaluation) => {
            evaluatedThrough = through;
            log(`  model evaluation: ${evaluation.scored} of ${evaluation.claims} claims scored`);
          },
          (error: unknown) => log(`  model evaluation failed: ${errorLine(error)}`),
        );
      }
      // Retention (docs/operations.md): the leader prunes what has served its purpose, once a day.
      const now = Math.floor(Date.now() / 1000);
      if (pruneDue({ now, lastPrunedAt })) {
        lastPrunedAt = now;
        await pruneStore(store.db, {
          now,
          retentionDays: retentionDaysFor(config.retentionDays, source.keepSince, now),
        }).then(
          (counts) => log(`  retention: pruned ${describeCounts(counts)}`),
          (error: unknown) => log(`  retention failed: ${errorLine(error)}`),
        );
      }
    },
    history: async ({ label, chains, time }, fence) => {
      await run(label, { chains, now: () => time, issue: source.issuesAlongHistory === true, fence });
    },
  };
}

/**
 * `RETENTION_DAYS`, lengthened so that nothing from `keepSince` on is pruned (the demo's replayed history).
 *
 * @example
 * retentionDaysFor(90, now - 121 * 86_400, now); // 122
 */
export function retentionDaysFor(retentionDays: number, keepSince: number | undefined, now: number): number {
  if (keepSince === undefined) return retentionDays;
  return Math.max(retentionDays, Math.ceil((now - keepSince) / 86_400) + 1);
}

/** `alert_outbox 3, ingest_runs 12`, or `nothing`. */
function describeCounts(counts: PruneCounts): string {
  const parts = Object.entries(counts).filter(([, n]) => n > 0);
  return parts.length === 0 ? "nothing" : parts.map(([table, n]) => `${table} ${n}`).join(", ");
}

/** One line describing a pass: status, pools observed on chain, attestations issued / kept, failing sources. */
export function summarize(report: PassReport): string {
  const count = (action: string) => report.issuance.filter((outcome) => outcome.action === action).length;
  const failing = Object.entries(report.sources)
    .filter(([, source]) => !source.ok)
    .map(([name]) => name);
  return [
    report.status,
    `${report.observedPools} pool(s) observed`,
    ...(report.issuance.length > 0
      ? [`${count("issued")} issued, ${count("kept")} kept, ${count("none")} without`]
      : []),
    ...(failing.length > 0 ? [`failing: ${failing.join(", ")}`] : []),
  ].join(", ");
}
