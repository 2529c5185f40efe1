import { connect } from "node:net";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../src/storage/openStore";
import { POOLS, buildTestApp, openTempStore, seed } from "../helpers/service/app";

/** Sends raw bytes to `port` and resolves with everything the server wrote before closing. */
async function rawRequest(port: number, bytes: string): Promise<{ status: number; body: string; head: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString("latin1")));
    socket.on("error", (error: Error & { code?: string }) => {
      // The server destroys the socket after answering; a reset after the answer is expected.
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") fail(error);
    });
    socket.on("close", () => {
      const [head, body = ""] = data.split("\r\n\r\n");
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body, head });
    });
    socket.write(bytes);
  });
}

describe("service error bodies (router and HTTP-level errors share the API's shape)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;

  before(async function () {
    ({ store, cleanup } = await openTempStore());
    await seed(store);
    app = await buildTestApp(store, { API_CACHE_TTL_MS: "600000" });
  });

  after(async function () {
    await app.close();
    await cleanup();
  });

  const get = (url: string) => app.inject({ method: "GET", url });

  describe("GET /api/v1/pool/{pool} with a pool id the router rejects", function () {
    for (const encoded of ["%ff", "%", "%zz", "%ED%A0%80", `1:${POOLS.weth}%ff`]) {
      it(`answers 400 INVALID_POOL_ID for the bad percent-encoding ${encoded}, without echoing the path`, async function () {
        const res = await get(`/api/v1/pool/${encoded}`);
        expect(res.statusCode).to.equal(400);
        expect(res.headers["content-type"]).to.match(/^application\/json/);
        const body = res.json();
        expect(Object.keys(body)).to.deep.equal(["error"]);
        expect(body.error).to.deep.include({ code: "INVALID_POOL_ID", field: "pool" });
        expect(body.error.message).to.be.a("string").and.not.include(encoded);
      });
    }

    it("answers 400 INVALID_POOL_ID (not 414) for an id over 500 characters, without echoing it", async function () {
      const id = "a".repeat(501);
      const res = await get(`/api/v1/pool/${id}`);
      expect(res.statusCode).to.equal(400);
      expect(res.json().error).to.deep.include({ code: "INVALID_POOL_ID", field: "pool" });
      expect(res.body).to.not.include("a".repeat(101));
      expect(res.body.length).to.be.lessThan(300);
    });

    for (const length of [201, 300, 500]) {
      it(`answers 400 INVALID_POOL_ID (not INVALID_REQUEST) for a ${length}-character id`, async function () {
        const res = await get(`/api/v1/pool/${"a".repeat(length)}`);
        expect(res.statusCode).to.equal(400);
        expect(res.json().error).to.deep.include({ code: "INVALID_POOL_ID", field: "pool" });
      });
    }
  });

  describe("another route's path parameter the router rejects", function () {
    it("answers 400 INVALID_REQUEST naming a path parameter, not a pool id, without echoing the path", async function () {
      const res = await app.inject({ method: "DELETE", url: "/api/v1/alert-subscriptions/%ff" });
      expect(res.statusCode).to.equal(400);
      const body = res.json();
      expect(body.error.code).to.equal("INVALID_REQUEST");
      expect(body.error.message).to.equal("A path parameter is not valid percent-encoded UTF-8.");
      expect(body.error).to.not.have.property("field");
    });
  });

  describe("the response cache and malformed ids", function () {
    it("quotes each caller's own spelling of a malformed id (no cached 400 from another spelling)", async function () {
      const first = await get("/api/v1/pool/Not-A-Pool");
      expect(first.statusCode).to.equal(400);
      expect(first.json().error.message).to.include('"Not-A-Pool"');
      const second = await get("/api/v1/pool/not-a-pool");
      expect(second.statusCode).to.equal(400);
      expect(second.json().error.message).to.include('"not-a-pool"');
    });

    it("still serves the same body for two spellings of a valid id", async function () {
      const lower = await get(`/api/v1/pool/1:${POOLS.weth.toLowerCase()}`);
      const upper = await get(`/api/v1/pool/1:0x${POOLS.weth.slice(2).toUpperCase()}`);
      expect(lower.statusCode).to.equal(200);
      expect(upper.body).to.equal(lower.body);
    });
  });

  describe("HTTP-level client errors over a real socket", function () {
    let port: number;
    let server: FastifyInstance;

    before(async function () {
      server = await buildTestApp(store, { PORT: "0" });
      await server.listen({ port: 0, host: "127.0.0.1" });
      port = (server.server.address() as { port: number }).port;
    });

    after(async function () {
      await server.close();
    });

    const cases: [string, string][] = [
      [
        "a Content-Length that is not a number",
        "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      ],
      ["a garbage request line", "NOT AN HTTP REQUEST\r\n\r\n"],
      ["a header line without a colon", "GET /api/v1/health HTTP/1.1\r\nHost x\r\n\r\n"],
    ];
    for (const [what, bytes] of cases) {
      it(`answers 400 BAD_REQUEST in the API's error shape for ${what}`, async function () {
        const res = await rawRequest(port, bytes);
        expect(res.status).to.equal(400);
        expect(res.head).to.match(/content-type: application\/json/i);
        expect(JSON.parse(res.body)).to.deep.equal({
          error: { code: "BAD_REQUEST", message: "The request is not valid HTTP." },
        });
      });
    }

    it("answers 431 HEADERS_TOO_LARGE in the API's error shape for oversized headers", async function () {
      const res = await rawRequest(
        port,
        `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      expect(res.status).to.equal(431);
      expect(JSON.parse(res.body).error.code).to.equal("HEADERS_TOO_LARGE");
    });

    it("still answers a well-formed request on the same server", async function () {
      const res = await rawRequest(port, "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      expect(res.status).to.equal(200);
    });
  });
});
