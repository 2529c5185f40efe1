import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { FeedRequestError } from "../../../src/errors/feeds";
import { fetchJson } from "../../../src/ingest/feeds/fetchJson";
import {
  createHostBlocks,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  type HostBlocks,
} from "../../../src/ingest/feeds/hostBlocks";
import { startRouteServer, type RouteServer } from "../../helpers/ingest/routeServer";
import { rejection } from "../../helpers/rejection";

const schema = z.object({ ok: z.literal(true) });
const fast = { timeoutMs: 2000, retries: 2, backoffMs: 5 };

describe("fetchJson: HTTP rules of real providers", () => {
  let server: RouteServer;
  let blocks: HostBlocks;
  beforeEach(async () => {
    server = await startRouteServer({ "/ok": () => ({ body: { ok: true } }) });
    blocks = createHostBlocks();
  });
  afterEach(() => server.close());

  const get = (path: string, extra: { maxBytes?: number } = {}) =>
    fetchJson({ source: "t", url: `${server.url}${path}`, schema, ...fast, hostBlocks: blocks, ...extra });

  for (const status of [301, 302, 307, 308]) {
    it(`never follows a ${status}: fails at once naming the Location`, async () => {
      server.routes.set("/moved", () => ({ status, headers: { location: `${server.url}/ok` } }));
      const error = (await rejection(get("/moved"))) as FeedRequestError;
      expect(error).to.be.instanceOf(FeedRequestError);
      expect(error.shortMessage).to.include(`redirect (HTTP ${status}) to "${server.url}/ok" not followed`);
      expect(error.attempts).to.equal(1);
      expect(server.counts.get("/ok")).to.equal(undefined);
    });
  }

  it("reads Retry-After as delay-seconds or an HTTP-date, capped at 10 minutes", () => {
    const now = Date.UTC(2026, 10, 28, 12);
    expect(retryAfterMs("30", now)).to.equal(30_000);
    expect(retryAfterMs(new Date(now + 90_000).toUTCString(), now)).to.equal(90_000);
    expect(retryAfterMs("86400", now)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(new Date(now + 3_600_000).toUTCString(), now)).to.equal(MAX_RETRY_AFTER_MS);
    for (const ignored of [null, "", "soon", "0", new Date(now - 1000).toUTCString()]) {
      expect(retryAfterMs(ignored, now), String(ignored)).to.equal(null);
    }
  });

  it("a 429 with Retry-After (seconds) blocks the host until it passes: no retry, no further request", async () => {
    server.routes.set("/busy", () => ({ status: 429, headers: { "retry-after": "30" } }));
    const started = Date.now();
    const error = (await rejection(get("/busy"))) as FeedRequestError;
    const until = Date.parse(/rate limited until (\S+)/.exec(error.shortMessage)![1]);
    expect(until).to.be.within(started + 30_000, Date.now() + 30_000);
    expect(server.counts.get("/busy")).to.equal(1);
    // Every path of that origin waits: nothing is asked.
    const blocked = (await rejection(get("/ok"))) as FeedRequestError;
    expect(blocked.shortMessage).to.match(/rate limited until /);
    expect(server.counts.get("/ok")).to.equal(undefined);
    // Once the block is gone (here cleared; in service it expires), the host is asked again.
    blocks.clear();
    expect(await get("/ok")).to.deep.equal({ ok: true });
  });

  it("a 503 with Retry-After as an HTTP-date, an hour away, blocks for 10 minutes at most", async () => {
    const date = new Date(Date.now() + 3_600_000).toUTCString();
    server.routes.set("/down", () => ({ status: 503, headers: { "retry-after": date } }));
    const started = Date.now();
    const error = (await rejection(get("/down"))) as FeedRequestError;
    const until = Date.parse(/rate limited until (\S+)/.exec(error.shortMessage)![1]);
    expect(until).to.be.within(started + MAX_RETRY_AFTER_MS, Date.now() + MAX_RETRY_AFTER_MS);
    expect(blocks.until(new URL(server.url).origin, Date.now())).to.equal(until);
    expect(blocks.until(new URL(server.url).origin, until)).to.equal(undefined);
  });

  it("a 429 without Retry-After is retried with backoff, as before", async () => {
    server.routes.set("/flaky", ({ count }) => (count === 1 ? { status: 429 } : { body: { ok: true } }));
    expect(await get("/flaky")).to.deep.equal({ ok: true });
    expect(server.counts.get("/flaky")).to.equal(2);
  });

  it("refuses a body above the cap, declared or streamed, naming the cap", async () => {
    server.routes.set("/big", () => ({ body: { ok: true, pad: "x".repeat(4096) } }));
    const declared = (await rejection(get("/big", { maxBytes: 1024 }))) as FeedRequestError;
    expect(declared.shortMessage).to.include("body above FEED_MAX_BYTES (1024 bytes)");
    expect(await get("/big", { maxBytes: 8192 })).to.deep.include({ ok: true });

    // A chunked body with no Content-Length that would never end: refused once past the cap, not buffered.
    let sent = 0;
    const endless: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => undefined);
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/x`;
      const error = (await rejection(
        fetchJson({ source: "t", url, schema, ...fast, hostBlocks: blocks, maxBytes: 256 * 1024 }),
      )) as FeedRequestError;
      expect(error.shortMessage).to.include("body above FEED_MAX_BYTES (262144 bytes)");
      expect(error.attempts).to.equal(1);
      expect(sent).to.be.below(16 * 1024 * 1024);
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });
});
