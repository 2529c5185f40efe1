import type { ServiceRole } from "../config/loadConfig";

/**
 * What this process is and how it is doing, as `/readyz` reports it (DESIGN §11). `main` owns one and updates it;
 * the server only reads it. Built by {@link createServiceStatus}.
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
  /** Set at SIGTERM: `/readyz` answers 503 from then on while in-flight requests finish. */
  draining: boolean;
}

/** A fresh status: not leading (null on `api`), no pass yet, not draining. */
export function createServiceStatus(parameters: { role: ServiceRole; instance: string }): ServiceStatus {
  return {
    role: parameters.role,
    instance: parameters.instance,
    leader: parameters.role === "api" ? null : false,
    lastPassAt: null,
    draining: false,
  };
}
