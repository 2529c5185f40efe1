import type { Kysely } from "kysely";
import type { Address } from "viem";
import { issueAttestations, type IssueOutcome } from "../../attest/issueAttestations";
import { LeaseLostError, PassAbortedError } from "../../errors/lease";
import type { AttestationSigner } from "../../attest/signer";
import type { PoolConfig } from "../../model/poolConfig";
import type { PassFence } from "../../storage/leaderLease";
import type { Database } from "../../storage/schema";
import { errorMessage, failedReport, type StepResult } from "./stepResult";

/** How a pass issues attestations (`RunIngestionPassParameters.issue`). */
export interface IssueSettings {
  signer: AttestationSigner;
  lifetimeS: number;
  registry?: { chainId: number; address: Address };
}

/**
 * Step `issue` (a step, not a data source): issues attestations from what the store now holds
 * (`issueAttestations`, which writes in its own short transaction). Not run (no report, no outcomes) when `issue` is
 * false. Rows: attestations issued. A failure is reported and logged, never thrown, except a lost lease or a stop
 * (the `fence`), which ends the pass.
 */
export async function issueStep(parameters: {
  db: Kysely<Database>;
  pools: readonly PoolConfig[];
  issue: IssueSettings | false | undefined;
  /** Unix seconds; becomes issuedAt. */
  now: () => number;
  freshnessWindowS: number;
  log: (line: string) => void;
  fence?: PassFence;
}): Promise<StepResult<IssueOutcome[]>> {
  const { db, pools, issue, now, freshnessWindowS, log, fence } = parameters;
  if (!issue) return { report: undefined, data: [] };
  try {
    const outcomes = await issueAttestations({
      db,
      pools,
      signer: issue.signer,
      lifetimeS: issue.lifetimeS,
      ...(issue.registry ? { registry: issue.registry } : {}),
      now: now(),
      freshnessWindowS,
      log,
      fence,
    });
    return { report: { ok: true, rows: outcomes.filter((o) => o.action === "issued").length }, data: outcomes };
  } catch (error) {
    if (error instanceof LeaseLostError || error instanceof PassAbortedError) throw error;
    log(`issue: ${errorMessage(error)}`);
    return { report: failedReport(error), data: [] };
  }
}
