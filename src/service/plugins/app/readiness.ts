import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Store } from "../../../storage/openStore";
import { latestFinishedIngestRun } from "../../../storage/ingestRuns";
import { schemaStatus } from "../../../storage/schemaStatus";
import { PROBE_CACHE_MS, cachedFor } from "./probes";
import type { ServiceStatus } from "../../serviceStatus";

/** How long `/readyz` waits for the store before it counts it unavailable. */
export const READY_STORE_TIMEOUT_MS = 2000;

/** Why a process is not ready, as `/readyz` lists them (fixed strings: a monitor may match them). */
export const NotReadyReason = {
  starting: "starting",
  draining: "draining",
  storeUnavailable: "store unavailable",
  schemaBehind: "schema behind",
  /** An api process whose attester is not known yet (no ATTESTER_ADDRESS, no attestation in the store). */
  attesterUnknown: "attester unknown",
  /** An api process on a store where no pass has finished yet: it would serve nothing. */
  noPass: "no finished pass",
} as const;
export type NotReadyReason = (typeof NotReadyReason)[keyof typeof NotReadyReason];

/** A readiness verdict: ready when `reasons` is empty. */
export interface Readiness {
  ready: boolean;
  reasons: NotReadyReason[];
}

export type ReadinessOptions = {
  store: Pick<Store, "db">;
  status: ServiceStatus;
  /** Default {@link READY_STORE_TIMEOUT_MS}. */
  storeTimeoutMs?: number;
  /** An api process: ready only once its attester is known and a pass has finished in the store. */
  api?: { attesterKnown: () => Promise<boolean> };
};

declare module "fastify" {
  interface FastifyInstance {
    /** What this process is and how it is doing (role, instance, leader, last pass, draining). */
    serviceStatus: ServiceStatus;
    /** Checks, now, whether this process should receive traffic. */
    readiness(): Promise<Readiness>;
  }
}

/**
 * Whether the process should receive traffic: past its startup passes (`status.starting`), not draining, and the store
 * answers the schema query (the applied migrations, read as the start reads them) within the timeout with no migration
 * of this version pending; an api process also needs its attester known and a finished pass in the store.
 * Never throws: a store that fails or is slower than the timeout is "store unavailable".
 */
export async function checkReadiness(options: ReadinessOptions): Promise<Readiness> {
  const reasons: NotReadyReason[] = [];
  if (options.status.starting) reasons.push(NotReadyReason.starting);
  if (options.status.draining) reasons.push(NotReadyReason.draining);
  reasons.push(...(await checkStore(options)));
  return { ready: reasons.length === 0, reasons };
}

/** The checks of {@link checkReadiness} that ask the store (and, on an api process, the attester and a finished pass). */
async function checkStore(options: ReadinessOptions): Promise<NotReadyReason[]> {
  const reasons: NotReadyReason[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((done) => {
    timer = setTimeout(() => done("timeout"), options.storeTimeoutMs ?? READY_STORE_TIMEOUT_MS);
  });
  try {
    const schema = await Promise.race([schemaStatus(options.store), timeout]);
    if (schema === "timeout") reasons.push(NotReadyReason.storeUnavailable);
    else if (!schema.current) reasons.push(NotReadyReason.schemaBehind);
    else if (options.api !== undefined) {
      const checks = Promise.all([options.api.attesterKnown(), latestFinishedIngestRun(options.store.db)]);
      const answered = await Promise.race([checks, timeout]);
      if (answered === "timeout") reasons.push(NotReadyReason.storeUnavailable);
      else {
        if (!answered[0]) reasons.push(NotReadyReason.attesterUnknown);
        if (answered[1] === undefined) reasons.push(NotReadyReason.noPass);
      }
    }
  } catch {
    reasons.push(NotReadyReason.storeUnavailable);
  } finally {
    clearTimeout(timer);
  }
  return reasons;
}

/** Decorates `fastify.serviceStatus` and `fastify.readiness()` for the probes (`routes/livez`, `routes/readyz`). */
export default fp(
  async function readiness(fastify: FastifyInstance, options: ReadinessOptions) {
    fastify.decorate("serviceStatus", options.status);
    // The store's answer is reused for up to a second (a flood of /readyz is not a flood of queries); the process's
    // own flags (starting, draining) are read at every request, so SIGTERM turns /readyz to 503 at once.
    const store = cachedFor(PROBE_CACHE_MS, () => checkStore(options));
    fastify.decorate("readiness", async () => {
      const reasons: NotReadyReason[] = [];
      if (options.status.starting) reasons.push(NotReadyReason.starting);
      if (options.status.draining) reasons.push(NotReadyReason.draining);
      reasons.push(...(await store()));
      return { ready: reasons.length === 0, reasons };
    });
  },
  { name: "readiness", fastify: "5.x" },
);
