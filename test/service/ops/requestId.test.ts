import { expect } from "chai";
import { jsonLogLine } from "../../../src/service/jsonLog";
import { CapturedLog, listenLoopback, useOpsApp } from "../../helpers/service/opsApp";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids and JSON logs", function () {
  this.timeout(30_000);

  const ops = useOpsApp();

  const idOf = async (header?: string) => {
    const response = await ops.app!.inject({
      url: "/api/v1/health",
      headers: header === undefined ? {} : { "x-request-id": header },
    });
    return response.headers["x-request-id"];
  };

  it("keeps a valid incoming x-request-id (printable ASCII, up to 128 characters)", async function () {
    await ops.build();
    expect(await idOf("abc-123")).to.equal("abc-123");
    expect(await idOf("lb=edge-1; trace:9f/2 ~ok")).to.equal("lb=edge-1; trace:9f/2 ~ok");
    const longest = "r".repeat(128);
    expect(await idOf(longest)).to.equal(longest);
  });

  it("replaces an invalid one (too long, control or non-ASCII characters) and makes one when absent", async function () {
    await ops.build();
    for (const bad of ["r".repeat(129), "a\tb", "caf\u00e9", ""]) {
      const id = await idOf(bad);
      expect(id, JSON.stringify(bad)).to.match(UUID);
    }
    const [first, second] = [await idOf(), await idOf()];
    expect(first).to.match(UUID);
    expect(second).to.match(UUID).and.not.equal(first);
  });

  it("every answer carries it on a real port: 200, 404, 429 and a router error", async function () {
    const app = await ops.build({ RATE_LIMIT_MAX: "1", RATE_LIMIT_WINDOW_S: "60" });
    const base = await listenLoopback(app);
    const get = (path: string, id: string) => fetch(`${base}${path}`, { headers: { "x-request-id": id } });
    const ok = await get("/api/v1/health", "id-200");
    const limited = await get("/api/v1/health", "id-429");
    const missing = await get("/no/such/route", "id-404");
    const bad = await get("/api/v1/pool/%ff", "id-400");
    expect([ok.status, limited.status, missing.status, bad.status]).to.deep.equal([200, 429, 404, 400]);
    expect(ok.headers.get("x-request-id")).to.equal("id-200");
    expect(limited.headers.get("x-request-id")).to.equal("id-429");
    expect(missing.headers.get("x-request-id")).to.equal("id-404");
    expect(bad.headers.get("x-request-id")).to.equal("id-400");
    const made = await fetch(`${base}/livez`);
    expect(made.headers.get("x-request-id")).to.match(UUID);
  });

  it("an answer written outside Fastify's reply (POST /mcp) carries it too", async function () {
    const app = await ops.build();
    const response = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { accept: "application/json, text/event-stream", "x-request-id": "mcp-1" },
      payload: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(response.statusCode).to.equal(200);
    expect(response.headers["x-request-id"]).to.equal("mcp-1");
  });

  it("every log line of a request is one JSON object naming its reqId and the instance", async function () {
    const log = new CapturedLog();
    const app = await ops.build({ LOG_LEVEL: "info", INSTANCE_ID: "api-3" }, { log });
    await app.inject({ url: "/api/v1/health", headers: { "x-request-id": "trace-me-1" } });
    await app.inject({ url: "/no/such/route", headers: { "x-request-id": "trace-me-2" } });
    const lines = log.lines();
    for (const line of lines) {
      expect(line).to.include.keys("level", "time", "msg", "instance");
      expect(line.instance).to.equal("api-3");
    }
    const first = lines.filter((line) => line.reqId === "trace-me-1");
    expect(first.map((line) => line.msg)).to.deep.equal(["incoming request", "request completed"]);
    expect(lines.filter((line) => line.reqId === "trace-me-2")).to.have.length(2);
    // Every request line names a request: none is logged without its id.
    expect(lines.filter((line) => "req" in line || "res" in line).every((line) => "reqId" in line)).to.equal(true);
  });

  it("the service's own lines have the request lines' shape (jsonLogLine)", function () {
    const line = jsonLogLine({ msg: 'ready: attester 0xabc; "quoted"', instance: "w-1", time: 1_767_225_600_000 });
    expect(line.endsWith("\n")).to.equal(true);
    expect(line.slice(0, -1)).to.not.include("\n");
    expect(JSON.parse(line)).to.deep.equal({
      level: 30,
      time: 1_767_225_600_000,
      instance: "w-1",
      msg: 'ready: attester 0xabc; "quoted"',
    });
    expect(JSON.parse(jsonLogLine({ msg: "x", level: "error" })).level).to.equal(50);
    expect(JSON.parse(jsonLogLine({ msg: "two\nlines" })).msg).to.equal("two\nlines");
  });
});
