import type { ServiceConfig } from "../config/loadConfig";
import { runIngestionPass, type PassReport } from "../ingest/runIngestionPass";
import type { HistoryMoment, IngestSource } from "../ingest/source";
import type { Store } from "../storage/openStore";
import type { LoadAttesterKeyReturnType } from "./attesterKey";

/** Runs the service's ingestion passes over one source. */
export interface PassRunner {
  /** A pass on the live chains that issues attestations: the source's `beforePass`, the pass, its `afterPass`. */
  live(label: string): Promise<void>;
  /** A pass over one moment of the source's history: ingest only, at that moment's blocks and clock. */
  history(moment: HistoryMoment): Promise<void>;
}

export type CreatePassRunnerParameters = {
  config: Pick<ServiceConfig, "attestationLifetimeS" | "freshnessWindowS">;
  key: Pick<LoadAttesterKeyReturnType, "signer">;
  store: Store;
  source: IngestSource;
  log: (line: string) => void;
  /** Called before every pass: throws to abort startup. */
  checkpoint: () => void;
};

/**
 * Binds `runIngestionPass` to the service's store, key, configuration and source. Each pass logs one line (see
 * {@link summarize}) and its steps indented.
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
}: CreatePassRunnerParameters): PassRunner {
  const run = async (
    label: string,
    options: { chains: IngestSource["chains"]; now?: () => number; issue: boolean; before?: () => Promise<void> },
  ) => {
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
    });
    log(`${label}: ${summarize(report)} in ${Date.now() - started} ms`);
    await source.afterPass?.();
  };
  return {
    live: (label) => run(label, { chains: source.chains, issue: true, before: async () => source.beforePass?.() }),
    history: ({ label, chains, time }) => run(label, { chains, now: () => time, issue: false }),
  };
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
