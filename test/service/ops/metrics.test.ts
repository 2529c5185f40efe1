import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { createMetrics, type ServiceMetrics } from "../../../src/metrics/serviceMetrics";
import { openTempStore } from "../../helpers/service/app";
import { buildOpsApp } from "../../helpers/service/opsApp";

const POOL_A = "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640";
const POOL_B = "0x0000000000000000000000000000000000000001";

describe("GET /metrics", function () {
  this.timeout(30_000);

  let temp: Awaited<ReturnType<typeof openTempStore>>;
  let app: FastifyInstance;
  let metrics: ServiceMetrics;
  let text: string;
  let contentType: string | undefined;

  before(async function () {
    temp = await openTempStore();
    metrics = createMetrics();
    app = await buildOpsApp(temp.store, { RATE_LIMIT_MAX: "2", RATE_LIMIT_WINDOW_S: "60" }, { metrics });
    // Two pools by address (each 404: not tracked), a third (429: this client's limit of 2 is used up), one unknown
    // path, one router error (bad percent-encoding).
    await app.inject({ url: `/api/v1/pool/${POOL_A}` });
    await app.inject({ url: `/api/v1/pool/eip155:1:${POOL_B}?at=1` });
    await app.inject({ url: `/api/v1/pool/${POOL_B}` });
    await app.inject({ url: "/no/such/path/12345" });
    await app.inject({ url: "/api/v1/pool/%ff" });
    const response = await app.inject({ url: "/metrics" });
    text = response.body;
    contentType = response.headers["content-type"] as string | undefined;
  });
  after(async function () {
    await app.close();
    await temp.cleanup();
  });

  /** The value of one sample line, or undefined when the series is absent. */
  const sample = (series: string): number | undefined => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it("is Prometheus text, never rate limited (this client's limit of 2 is used up)", async function () {
    expect(contentType).to.match(/^text\/plain; version=0\.0\.4/);
    expect(sample('attest_http_requests_total{method="GET",route="/api/v1/pool/:pool",status="429"}')).to.equal(1);
  });

  it("labels each request with its route pattern, never the raw URL", function () {
    expect(sample('attest_http_requests_total{method="GET",route="/api/v1/pool/:pool",status="404"}')).to.equal(2);
    expect(text).to.not.include(POOL_A);
    expect(text).to.not.include(POOL_B);
    expect(text).to.not.include("12345");
    expect(text).to.not.include("%ff");
  });

  it('counts answers no route matched (404) and router errors under route="unmatched"', function () {
    expect(sample('attest_http_requests_total{method="GET",route="unmatched",status="404"}')).to.equal(1);
    expect(sample('attest_http_requests_total{method="GET",route="unmatched",status="400"}')).to.equal(1);
  });

  it("observes the duration histogram with the same labels", function () {
    const labels = 'method="GET",route="/api/v1/pool/:pool",status="404"';
    expect(sample(`attest_http_request_duration_seconds_count{${labels}}`)).to.equal(2);
    expect(sample(`attest_http_request_duration_seconds_bucket{le="+Inf",${labels}}`)).to.equal(2);
    expect(sample(`attest_http_request_duration_seconds_sum{${labels}}`))
      .to.be.a("number")
      .and.at.least(0);
  });

  it("serves every series docs/operations.md lists and the default process metrics", function () {
    for (const name of [
      "attest_http_requests_total",
      "attest_http_request_duration_seconds",
      "attest_ingest_passes_total",
      "attest_ingest_pass_duration_seconds",
      "attest_ingest_leader",
      "attest_attestations_issued_total",
      "attest_alert_outbox_pending",
      "attest_alert_deliveries_total",
      "process_cpu_user_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text, name).to.match(new RegExp(`^# TYPE ${name} `, "m"));
    }
  });

  it("renders the text at most once a second: a scrape within it gets the same text; the next second counts the scrapes", async function () {
    const scrapes = /^attest_http_requests_total\{method="GET",route="\/metrics",status="200"\} (\d+)$/m;
    const again = await app.inject({ url: "/metrics" });
    if (again.body !== text) {
      // The second had already turned: then this scrape rendered anew and counts the first.
      expect(again.body).to.match(scrapes);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = (await app.inject({ url: "/metrics" })).body;
    expect(Number(scrapes.exec(later)?.[1])).to.be.at.least(2);
  });
});

describe("GET /metrics and /readyz guards (PROBE_RATE_LIMIT, METRICS_TOKEN) and the api role's series", function () {
  this.timeout(30_000);
  let temp: Awaited<ReturnType<typeof openTempStore>>;
  const apps: FastifyInstance[] = [];
  beforeEach(async () => {
    temp = await openTempStore();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await temp.cleanup();
  });
  const build = async (env: Record<string, string>, role?: "api" | "all") => {
    const app = await buildOpsApp(temp.store, env, { metrics: createMetrics({ role }) });
    apps.push(app);
    return app;
  };

  it("a flood of /metrics or /readyz from one address is cut at PROBE_RATE_LIMIT a second; another address and /livez are served", async function () {
    const app = await build({ PROBE_RATE_LIMIT: "3" });
    for (const url of ["/metrics", "/readyz"]) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await app.inject({ url, remoteAddress: "10.9.9.9" })).statusCode);
      // A second may turn during the loop: at most two windows' worth pass.
      expect(statuses.filter((s) => s === 429).length, url).to.be.at.least(1);
      expect(statuses.filter((s) => s !== 429).length, url).to.be.at.most(6);
      const refused = await app.inject({ url, remoteAddress: "10.9.9.9" });
      if (refused.statusCode === 429) expect(refused.json().error.code).to.equal("RATE_LIMITED");
      expect((await app.inject({ url, remoteAddress: "10.7.7.7" })).statusCode, url).to.not.equal(429);
    }
    for (let i = 0; i < 10; i++) {
      expect((await app.inject({ url: "/livez", remoteAddress: "10.9.9.9" })).statusCode).to.equal(200);
    }
  });

  it("PROBE_RATE_LIMIT=0 limits nothing", async function () {
    const app = await build({ PROBE_RATE_LIMIT: "0" });
    for (let i = 0; i < 30; i++) expect((await app.inject({ url: "/metrics" })).statusCode).to.equal(200);
  });

  it("METRICS_TOKEN: /metrics needs the bearer (401 with WWW-Authenticate otherwise); the probes do not", async function () {
    const token = "s3cret-metrics-token-0123456789";
    const app = await build({ METRICS_TOKEN: token });
    const none = await app.inject({ url: "/metrics" });
    expect(none.statusCode).to.equal(401);
    expect(none.headers["www-authenticate"]).to.match(/^Bearer/);
    expect(none.json().error.code).to.equal("UNAUTHORIZED");
    expect((await app.inject({ url: "/metrics", headers: { authorization: "Bearer wrong" } })).statusCode).to.equal(
      401,
    );
    const ok = await app.inject({ url: "/metrics", headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).to.equal(200);
    expect(ok.body).to.match(/^# TYPE attest_http_requests_total /m);
    expect((await app.inject({ url: "/livez" })).statusCode).to.equal(200);
  });

  it("an api process exports no ingestion or alert series (it runs no pass and delivers nothing)", async function () {
    const text = (await (await build({}, "api")).inject({ url: "/metrics" })).body;
    expect(text).to.match(/^# TYPE attest_http_requests_total /m);
    for (const name of [
      "attest_ingest_leader",
      "attest_ingest_passes_total",
      "attest_attestations_issued_total",
      "attest_alert_deliveries_total",
    ]) {
      expect(text, name).to.not.include(name);
    }
  });
});
