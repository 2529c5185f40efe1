import type { AddressInfo, Socket } from "node:net";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { privateKeyToAccount } from "viem/accounts";
import { signAttestation } from "../../src/lib/signAttestation";
import { NOT_READY_FIRST_MS, closeServer } from "../../src/service/server";
import type { Store } from "../../src/storage/openStore";
import { startServiceJob, type ServiceJob } from "../helpers/reliability/serviceJob";
import { openSocket, watch, within, type Received } from "../helpers/reliability/rawHttp";
import { buildTestApp, openTempStore, TEST_KEY } from "../helpers/service/app";
import { freshPostgresUrl } from "../../testkit/postgres";

/** A signed attestation as the API serves it (the test attester's key): `POST /api/v1/verify` answers 200. */
async function attestationBody(): Promise<string> {
  const fields = {
    chainId: 1,
    confidence: 0.85,
    expiry: 1_800_000_000,
    horizon: 30,
    issuedAt: 1_767_225_600,
    pool: "0x00000000000000000000000000000000000000ab",
  };
  return JSON.stringify({ ...fields, signature: await signAttestation({ attestation: fields, privateKey: TEST_KEY }) });
}

const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

/**
 * Sends the head of `POST /api/v1/verify` with `Expect: 100-continue`, waits for the server's `100 Continue` (so the
 * request is in flight: its head is parsed), then sends the first half of the body. Returns the rest, to send later.
 */
async function startTrickle(socket: Socket, received: Received): Promise<string> {
  const body = await attestationBody();
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  for (let waited = 0; !received.text().startsWith(CONTINUE); waited += 10) {
    if (waited > 10_000) throw new Error(`no 100 Continue: ${received.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  socket.write(body.slice(0, half));
  return body.slice(half);
}

/** The status and the JSON body of the one complete answer after the `100 Continue` (its Content-Length honoured). */
function completeAnswer(received: Received): { status: number; body: Record<string, unknown> } {
  const text = received.text().slice(CONTINUE.length);
  expect(text, "an answer arrived (the connection was not cut)").to.include("\r\n\r\n");
  const [head, body] = text.split("\r\n\r\n");
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
  expect(Buffer.byteLength(body), `the whole body arrived:\n${text}`).to.equal(length);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) as Record<string, unknown> };
}

/** Whether the answer so far is only the `100 Continue`. */
const notAnswered = (received: Received) => received.text() === CONTINUE;

/** Whether a new connection to `port` is refused (or, if it connects, answered 503). */
async function newConnectionRefused(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    return response.status === 503;
  } catch {
    return true;
  }
}

describe("reliability: SIGTERM drains", function () {
  this.timeout(180_000);

  describe("closeServer (in process)", function () {
    let store: Store;
    let cleanup: () => Promise<void>;
    let app: FastifyInstance;
    let port: number;

    beforeEach(async function () {
      ({ store, cleanup } = await openTempStore());
      app = await buildTestApp(store, { RATE_LIMIT_MAX: "0" });
      await app.listen({ port: 0, host: "127.0.0.1" });
      port = (app.server.address() as AddressInfo).port;
    });
    afterEach(async function () {
      await app.close();
      await cleanup();
    });

    it("lets a request in flight finish with its whole answer, refuses new connections, and closes once it is answered", async function () {
      const socket = await openSocket(port, "127.0.0.1");
      const received = watch(socket);
      const rest = await startTrickle(socket, received);
      // A kept-alive idle connection, opened before: cut at once, not after the 72 s keep-alive timeout.
      const idle = await openSocket(port, "127.0.0.1");
      const idleWatch = watch(idle);
      idle.write("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      for (let waited = 0; idleWatch.status() !== 200; waited += 10) {
        if (waited > 10_000) throw new Error(`no answer on the kept-alive connection: ${idleWatch.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }

      const closing = closeServer(app, 60_000);
      expect(await within(idleWatch.closed, 5000), "the idle connection is closed").to.equal(true);
      expect(await newConnectionRefused(port), "a new connection after the drain began").to.equal(true);
      expect(notAnswered(received), "no answer yet: the body is still coming").to.equal(true);

      socket.write(rest);
      expect(await within(closing, 10_000), "closed once the answer went out, long before the grace").to.equal(true);
      expect(await within(received.closed, 5000), "its connection closed after the answer").to.equal(true);
      const { status, body } = completeAnswer(received);
      expect(status).to.equal(200);
      expect(body).to.include({ valid: true, attester: privateKeyToAccount(TEST_KEY).address });
    });

    it("cuts what is still open after the grace", async function () {
      const socket = await openSocket(port, "127.0.0.1");
      const received = watch(socket);
      await startTrickle(socket, received);
      const closing = closeServer(app, 300);
      expect(await within(closing, 10_000), "closed after the grace").to.equal(true);
      expect(await within(received.closed, 5000), "the unfinished request's connection is cut").to.equal(true);
      expect(notAnswered(received), "never answered").to.equal(true);
    });
  });

  describe("the compiled service in a child process (npm run build first)", function () {
    let service: ServiceJob;

    before(async function () {
      service = await startServiceJob({ databaseUrl: await freshPostgresUrl(), env: { SHUTDOWN_GRACE_S: "30" } });
    });
    after(async function () {
      await service?.stop();
    });

    it("SIGTERM with a request in flight: not ready at once, new connections refused, the request answered in full, exit 0", async function () {
      const { job, port } = service;
      const socket = await openSocket(port, "127.0.0.1");
      const received = watch(socket);
      const rest = await startTrickle(socket, received);

      job.child.kill("SIGTERM");
      await job.waitFor(/SIGTERM: shutting down \(draining/);
      // Not ready at once: for NOT_READY_FIRST_MS the listener still serves and /readyz answers 503 ...
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).to.equal(503);
      expect(((await ready.json()) as { reasons: string[] }).reasons).to.include("draining");
      // ... then no new connection is accepted.
      await new Promise((resolve) => setTimeout(resolve, NOT_READY_FIRST_MS + 500));
      expect(await newConnectionRefused(port), "a new connection after SIGTERM").to.equal(true);
      expect(job.child.exitCode, "still running: a request is in flight").to.equal(null);

      socket.write(rest);
      expect(await job.exited, job.output).to.equal(0);
      await received.closed;
      const { status, body } = completeAnswer(received);
      expect(status).to.equal(200);
      expect(body).to.include({ valid: true });
      expect(job.output).to.match(/SIGTERM: shutting down \(draining[^]*stopped/);
    });
  });
});
