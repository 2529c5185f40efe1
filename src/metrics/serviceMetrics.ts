import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The service's Prometheus metrics (docs/operations.md#probes-metrics-and-logs), one registry per process (tests build
 * several apps in one process, so nothing lives in prom-client's global registry). `GET /metrics` serves
 * `registry.metrics()`. The HTTP metrics are counted by the server; the ingestion metrics by the process that runs
 * passes; the alert metrics by the process that delivers.
 */
export interface ServiceMetrics {
  registry: Registry;
  /** `attest_http_requests_total{method,route,status}`: `route` is the route's pattern (`/api/v1/pool/:pool`). */
  httpRequests: Counter<"method" | "route" | "status">;
  /** `attest_http_request_duration_seconds{method,route,status}`. */
  httpDuration: Histogram<"method" | "route" | "status">;
  /** `attest_ingest_passes_total{status}`: ok, partial, failed. */
  ingestPasses: Counter<"status">;
  /** `attest_ingest_pass_duration_seconds`. */
  ingestPassDuration: Histogram;
  /** `attest_ingest_leader`: 1 while this process holds the lease, else 0. */
  ingestLeader: Gauge;
  /** `attest_attestations_issued_total`. */
  attestationsIssued: Counter;
  /** `attest_alert_outbox_pending`: deliveries waiting; its value is read at scrape time ({@link setOutboxPending}). */
  alertOutboxPending: Gauge;
  /** `attest_alert_deliveries_total{result}`: delivered, retry, failed. */
  alertDeliveries: Counter<"result">;
}

/**
 * A new registry with the default process metrics and the series this process's role produces: every role counts HTTP
 * requests; `worker` and `all` also the ingestion and alert series. An `api` process runs no pass and delivers no
 * alert: those series are still created (the code that would count them type-checks) but never exported, so a
 * dashboard does not read an api process's `attest_ingest_leader 0` as a standby.
 *
 * @param options `role` (`SERVICE_ROLE`); default `all`.
 */
export function createMetrics(options: { role?: "all" | "api" | "worker" } = {}): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = [registry];
  const registers = options.role === "api" ? [] : [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "attest_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      registers: http,
    }),
    httpDuration: new Histogram({
      name: "attest_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: http,
    }),
    ingestPasses: new Counter({
      name: "attest_ingest_passes_total",
      help: "Ingestion passes run by this process, by final status",
      labelNames: ["status"],
      registers,
    }),
    ingestPassDuration: new Histogram({
      name: "attest_ingest_pass_duration_seconds",
      help: "Duration of the ingestion passes run by this process",
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    }),
    ingestLeader: new Gauge({
      name: "attest_ingest_leader",
      help: "1 while this process holds the ingestion lease, else 0",
      registers,
    }),
    attestationsIssued: new Counter({
      name: "attest_attestations_issued_total",
      help: "Signed attestations issued by this process",
      registers,
    }),
    alertOutboxPending: new Gauge({
      name: "attest_alert_outbox_pending",
      help: "Alert deliveries waiting in the outbox (read at scrape time by the delivering process)",
      registers,
    }),
    alertDeliveries: new Counter({
      name: "attest_alert_deliveries_total",
      help: "Alert delivery attempts by this process, by result",
      labelNames: ["result"],
      registers,
    }),
  };
}

/** Makes `attest_alert_outbox_pending` read its value when scraped (the delivering process sets this). */
export function setOutboxPending(metrics: ServiceMetrics, count: () => Promise<number>): void {
  (metrics.alertOutboxPending as unknown as { collect?: () => Promise<void> }).collect = async function collect() {
    metrics.alertOutboxPending.set(await count());
  };
}
