import { expect } from "chai";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { isTrustedProxy } from "../../../src/service/plugins/app/connection-limits";
import { openTempStore } from "../../helpers/service/app";
import { buildOpsApp, CapturedLog, listenLoopback } from "../../helpers/service/opsApp";
import { openSocket, watch, within } from "../../helpers/reliability/rawHttp";

const CLIENT_A = "203.0.113.1";
const CLIENT_B = "203.0.113.2";

/**
 * TRUST_PROXY against a real server on a loopback port (docs/operations.md#behind-a-proxy): the test is the proxy (its
 * sockets come from 127.0.0.1) and names the clients in X-Forwarded-For.
 */
describe("TRUST_PROXY: the client address behind a proxy (real loopback port)", function () {
  this.timeout(30_000);

  let temp: Awaited<ReturnType<typeof openTempStore>>;
  let app: FastifyInstance | undefined;
  const opened: Socket[] = [];
  beforeEach(async function () {
    temp = await openTempStore();
  });
  afterEach(async function () {
    for (const socket of opened.splice(0)) socket.destroy();
    await app?.close();
    app = undefined;
    await temp.cleanup();
  });

  async function serve(env: Record<string, string>, log?: CapturedLog): Promise<string> {
    app = await buildOpsApp(temp.store, { RATE_LIMIT_MAX: "2", RATE_LIMIT_WINDOW_S: "60", ...env }, { log });
    return listenLoopback(app);
  }
  /** Three requests from client A, then one from B, through the "proxy": the four statuses. */
  async function aaaThenB(base: string, path = "/api/v1/health"): Promise<number[]> {
    const from = (client: string) => fetch(`${base}${path}`, { headers: { "x-forwarded-for": client } });
    const statuses: number[] = [];
    for (const client of [CLIENT_A, CLIENT_A, CLIENT_A, CLIENT_B]) statuses.push((await from(client)).status);
    return statuses;
  }

  it("a hop count gives two clients behind one proxy two rate-limit buckets", async function () {
    expect(await aaaThenB(await serve({ TRUST_PROXY: "1" }))).to.deep.equal([200, 200, 429, 200]);
  });

  it("the proxy's address in TRUST_PROXY does the same", async function () {
    expect(await aaaThenB(await serve({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }))).to.deep.equal([200, 200, 429, 200]);
  });

  it("unset, every client behind the proxy shares its one bucket (X-Forwarded-For is ignored)", async function () {
    expect(await aaaThenB(await serve({}))).to.deep.equal([200, 200, 429, 429]);
  });

  it("a socket that is not a listed proxy cannot pick its client address", async function () {
    expect(await aaaThenB(await serve({ TRUST_PROXY: "10.0.0.1" }))).to.deep.equal([200, 200, 429, 429]);
  });

  it("the sign-in limit is per resolved client too", async function () {
    const base = await serve({ TRUST_PROXY: "1", RATE_LIMIT_SIGN_IN_MAX: "2" });
    expect(await aaaThenB(base, "/auth/nonce")).to.deep.equal([200, 200, 429, 200]);
  });

  it("the request logs name the resolved client", async function () {
    const log = new CapturedLog();
    const base = await serve({ TRUST_PROXY: "1", LOG_LEVEL: "info" }, log);
    await fetch(`${base}/livez`, {
      headers: { "x-forwarded-for": `198.51.100.7, ${CLIENT_A}`, "x-request-id": "p-1" },
    });
    const incoming = log.lines().find((line) => line.reqId === "p-1" && line.msg === "incoming request");
    expect((incoming?.req as { remoteAddress?: string } | undefined)?.remoteAddress).to.equal(CLIENT_A);
  });

  describe("the per-client connection cap (keyed on the socket address, before any request is read)", function () {
    /** Opens `count` sockets from 127.0.0.1, each asking for /livez and kept alive: how many were answered 200. */
    async function served(base: string, count: number): Promise<number> {
      const port = Number(new URL(base).port);
      const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(port, "127.0.0.1")));
      opened.push(...sockets);
      const received = sockets.map((socket) => watch(socket));
      // Kept alive, an answered socket stays open: the cap sees all of them, whatever order they are accepted in.
      const keptAlive = "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
      for (const socket of sockets) socket.write(keptAlive, () => undefined);
      const answeredOrClosed = received.map(
        (r, i) =>
          new Promise<void>((resolve) => {
            sockets[i].on("data", () => (r.status() !== null ? resolve() : undefined));
            void r.closed.then(resolve);
          }),
      );
      expect(await within(Promise.all(answeredOrClosed), 5000), "every socket answered or closed").to.equal(true);
      return received.filter((r) => r.status() === 200).length;
    }

    it("caps a direct client's sockets when TRUST_PROXY is unset", async function () {
      const base = await serve({ MAX_CONNECTIONS_PER_CLIENT: "2" });
      expect(await served(base, 4)).to.equal(2);
      expect(app!.connectionCounts.refused()).to.equal(2);
    });

    it("does not cap a trusted proxy's sockets (they carry many clients)", async function () {
      const base = await serve({ MAX_CONNECTIONS_PER_CLIENT: "2", TRUST_PROXY: "127.0.0.1" });
      expect(await served(base, 4)).to.equal(4);
      expect(app!.connectionCounts.refused()).to.equal(0);
    });
  });

  it("isTrustedProxy reads TRUST_PROXY as Fastify does: none, every address for a hop count, or the listed ones", function () {
    expect(isTrustedProxy(false)("127.0.0.1")).to.equal(false);
    expect(isTrustedProxy(0)("127.0.0.1")).to.equal(false);
    expect(isTrustedProxy(2)("198.51.100.1")).to.equal(true);
    const listed = isTrustedProxy(["10.0.0.0/8", "2001:db8::1"]);
    expect(listed("10.1.2.3")).to.equal(true);
    expect(listed("::ffff:10.1.2.3"), "IPv4 on a dual-stack socket").to.equal(true);
    expect(listed("11.0.0.1")).to.equal(false);
    expect(listed("2001:db8::1")).to.equal(true);
    expect(listed("2001:db8::2")).to.equal(false);
  });
});
