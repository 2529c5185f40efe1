import { expect } from "chai";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildTestApp, openTempStore } from "../helpers/service/app";
import { get, openSocket, postHead, request, watch, within, type Received } from "../helpers/reliability/rawHttp";

/**
 * The connection limits (docs/security.md#connections-and-slow-clients) against a real server on a loopback port (issue
 * 19). The attacker is 127.0.0.1, the other client 127.0.0.2 (its socket bound there). Every test is bounded in sockets
 * and time and closes what it opened.
 */
describe("connection limits (real loopback port)", function () {
  this.timeout(30_000);

  const ATTACKER = "127.0.0.1";
  const OTHER = "127.0.0.2";
  const opened: Socket[] = [];
  let temp: Awaited<ReturnType<typeof openTempStore>>;
  let app: FastifyInstance | undefined;

  before(async function () {
    temp = await openTempStore();
  });
  after(async function () {
    await temp.cleanup();
  });
  afterEach(async function () {
    for (const socket of opened.splice(0)) socket.destroy();
    await app?.close();
    app = undefined;
  });

  async function serve(env: Record<string, string>): Promise<number> {
    app = await buildTestApp(temp.store, env);
    await app.listen({ port: 0, host: "127.0.0.1" });
    return (app.server.address() as { port: number }).port;
  }
  async function open(port: number, localAddress: string): Promise<Socket> {
    const socket = await openSocket(port, localAddress);
    opened.push(socket);
    return socket;
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a slow-body flood from one address (600 sockets) never stops another client being served", async function () {
    const port = await serve({ REQUEST_TIMEOUT_S: "2", MAX_CONNECTIONS_PER_CLIENT: "32" });
    const SOCKETS = 600;
    const flood: { socket: Socket; received: Received }[] = [];
    const started = Date.now();
    // Open the flood in batches (the listen backlog is finite), each socket sending the headers of a 60,000-byte
    // POST /api/v1/verify and its first byte, then one more byte every 250 ms: a slowloris that never finishes.
    for (let batch = 0; batch < SOCKETS / 100; batch++) {
      const sockets = await Promise.all(Array.from({ length: 100 }, () => open(port, ATTACKER).catch(() => null)));
      for (const socket of sockets) {
        if (socket === null) continue;
        const received = watch(socket);
        socket.write(`${postHead(60_000)}{`, () => undefined);
        flood.push({ socket, received });
      }
      await sleep(20);
    }
    const dribble = setInterval(() => {
      for (const { socket } of flood) if (!socket.destroyed) socket.write(" ", () => undefined);
    }, 250);
    try {
      await sleep(300);
      const held = app!.connectionCounts.get(ATTACKER);
      const fresh = await request(port, OTHER, get("/api/v1/health"));
      const attacker = await request(port, ATTACKER, get("/api/v1/health"), 1000);
      const refused = app!.connectionCounts.refused();

      // Within the request timeout (2 s) plus Node's 1 s check, every held socket is answered 408 and closed.
      const allClosed = await within(Promise.all(flood.map(({ received }) => received.closed)), 6000);
      const answered408 = flood.filter(({ received }) => received.status() === 408).length;
      console.log(
        `      flood: ${flood.length} sockets from ${ATTACKER}, ${held} held, ${refused} closed at once; ` +
          `${OTHER} served ${fresh.status} in ${fresh.ms} ms; the held ones 408 and closed after ` +
          `${Math.max(...flood.map(({ received }) => received.closedAfterMs() ?? 0))} ms (${Date.now() - started} ms in all)`,
      );

      expect(fresh.status, "the other client is served").to.equal(200);
      expect(fresh.ms, "…quickly").to.be.below(1500);
      expect(held, "the attacker holds at most the cap").to.be.at.most(32);
      expect(refused, "the rest were closed at once").to.be.at.least(SOCKETS - 32 - 1);
      expect(attacker.status, "the attacker's own address is full").to.equal(null);
      expect(allClosed, "every flood socket is closed by the timeout").to.equal(true);
      expect(answered408).to.be.within(1, 32);
      expect(app!.connectionCounts.get(ATTACKER)).to.equal(0);
    } finally {
      clearInterval(dribble);
    }
  });

  it("answers 408 and closes a connection whose body does not arrive within REQUEST_TIMEOUT_S", async function () {
    const port = await serve({ REQUEST_TIMEOUT_S: "2" });
    const socket = await open(port, ATTACKER);
    const received = watch(socket);
    socket.write(`${postHead(60_000)}{"scheme":`);
    const dribble = setInterval(() => !socket.destroyed && socket.write(" ", () => undefined), 200);
    try {
      expect(await within(received.closed, 5000), "closed by the server").to.equal(true);
    } finally {
      clearInterval(dribble);
    }
    expect(received.status()).to.equal(408);
    expect(received.closedAfterMs()).to.be.within(1500, 3500);
    expect(received.text()).to.match(/\r\nconnection: close\r\n/i);
    expect(received.text()).to.match(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(received.text()).to.include('"code":"REQUEST_TIMEOUT"');
  });

  it("also closes a connection that never sends a byte", async function () {
    const port = await serve({ REQUEST_TIMEOUT_S: "1" });
    const received = watch(await open(port, ATTACKER));
    expect(await within(received.closed, 4000)).to.equal(true);
    expect(received.closedAfterMs()).to.be.within(500, 3000);
  });

  it("closes connection N+1 from one address at once while another address connects", async function () {
    const port = await serve({ MAX_CONNECTIONS_PER_CLIENT: "4" });
    const held = await Promise.all([1, 2, 3, 4].map(() => open(port, ATTACKER)));
    for (let waited = 0; app!.connectionCounts.get(ATTACKER) < 4 && waited < 2000; waited += 10) await sleep(10);
    expect(app!.connectionCounts.get(ATTACKER)).to.equal(4);

    const fifth = watch(await open(port, ATTACKER));
    expect(await within(fifth.closed, 1000), "the fifth is closed at once").to.equal(true);
    expect(fifth.text()).to.equal("");
    expect((await request(port, OTHER, get("/api/v1/health"))).status).to.equal(200);

    // A connection released frees its place.
    const gone = watch(held[0]);
    held[0].destroy();
    await gone.closed;
    for (let waited = 0; app!.connectionCounts.get(ATTACKER) > 3 && waited < 2000; waited += 10) await sleep(10);
    expect((await request(port, ATTACKER, get("/api/v1/health"))).status).to.equal(200);
  });

  it("MAX_CONNECTIONS_PER_CLIENT=0 switches the cap off", async function () {
    const port = await serve({ MAX_CONNECTIONS_PER_CLIENT: "0" });
    await Promise.all([1, 2, 3].map(() => open(port, ATTACKER)));
    expect((await request(port, ATTACKER, get("/api/v1/health"))).status).to.equal(200);
  });

  it("a 429 closes a connection whose body was not read", async function () {
    const port = await serve({ RATE_LIMIT_VERIFY_MAX: "1", REQUEST_TIMEOUT_S: "30" });
    const first = await request(port, ATTACKER, `${postHead(2)}{}`);
    expect(first.status).to.equal(400);

    const socket = await open(port, ATTACKER);
    const received = watch(socket);
    socket.write(`${postHead(60_000)}{"scheme":`);
    const dribble = setInterval(() => !socket.destroyed && socket.write(" ", () => undefined), 100);
    try {
      expect(await within(received.closed, 3000), "closed right after the 429, not at the 30 s timeout").to.equal(true);
    } finally {
      clearInterval(dribble);
    }
    expect(received.status()).to.equal(429);
    expect(received.text()).to.match(/\r\nconnection: close\r\n/i);
    expect(received.closedAfterMs()).to.be.below(2000);
  });

  it("a 429 to a request without a body keeps the connection alive", async function () {
    const port = await serve({ RATE_LIMIT_MAX: "1" });
    const socket = await open(port, ATTACKER);
    const received = watch(socket);
    const keepAlive = "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    socket.write(keepAlive + keepAlive);
    for (let waited = 0; (received.text().match(/HTTP\/1\.1/g) ?? []).length < 2 && waited < 3000; waited += 10) {
      await sleep(10);
    }
    expect(received.text()).to.match(/HTTP\/1\.1 429/);
    expect(received.text()).not.to.match(/\r\nconnection: close\r\n/i);
    expect(await within(received.closed, 300)).to.equal(false);
  });
});
