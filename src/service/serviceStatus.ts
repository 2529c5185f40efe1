import type { ServiceRole } from "../config/loadConfig";

/**
 * What this process is and how it is doing, as `/readyz` reports it (docs/operations.md#probes-metrics-and-logs).
 * `main` owns one and updates it; the server only reads it. Built by {@link createServiceStatus}.
 */
export interface ServiceStatus {
  /** `SERVICE_ROLE`. */
  readonly role: ServiceRole;
  /** `INSTANCE_ID`. */
  readonly instance: string;
  /** True while this process holds the ingestion lease, false on a standby worker, null on an `api` process. */
  leader: boolean | null;
  /** When this process last finished a pass (Unix seconds), null before its first. */
  lastPassAt: number | null;
  /**
   * True from the start of a `worker` or `all` process until its startup passes (history replay, first issuing pass)
   * end, whether they succeed or not: the port is bound before them, and `/readyz` answers 503
   * "starting" meanwhile. False on an `api` process, which runs no pass, and on a status made outside `runService`.
   */
  starting: boolean;
  /** Set at SIGTERM: `/readyz` answers 503 from then on while in-flight requests finish. */
  draining: boolean;
}

/** A fresh status: not leading (null on `api`), no pass yet, `starting` as given (default false), not draining. */
export function createServiceStatus(parameters: {
  role: ServiceRole;
  instance: string;
  starting?: boolean;
}): ServiceStatus {
  return {
    role: parameters.role,
    instance: parameters.instance,
    leader: parameters.role === "api" ? null : false,
    lastPassAt: null,
    starting: parameters.starting ?? false,
    draining: false,
  };
}
