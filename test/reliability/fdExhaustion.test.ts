import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { join } from "node:path";
import { expect } from "chai";
import { get, openSocket, postHead, request } from "../helpers/reliability/rawHttp";

const FD_LIMIT = 256;
const SOCKETS = 1000;

/**
 * The attack of issue 19, reproduced: the service (the compiled build, `npm run build` first, as the e2e tests) runs in
 * a child process limited to 256 file descriptors; 1,000 sockets from 127.0.0.1 each send the headers of a
 * 60,000-byte `POST /api/v1/verify` and then one byte every 250 ms. Before the connection limits the server held every
 * socket until it ran out of descriptors, and a fresh client from 127.0.0.2 got "connection reset" or a close without
 * an answer; with the per-client cap it is served at once. Linux only (`ulimit`, /proc), loopback only, bounded.
 */
describe("file descriptor exhaustion by one address (issue 19, child process under ulimit -n 256)", function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  const flood: Socket[] = [];

  before(function () {
    if (process.platform !== "linux") this.skip();
  });
  afterEach(function () {
    for (const socket of flood.splice(0)) socket.destroy();
    if (child?.connected) child.disconnect();
    child?.kill();
    child = undefined;
  });

  function startLimited(env: Record<string, string>): Promise<number> {
    const script = join(__dirname, "..", "helpers", "reliability", "limitedServer.js");
    const started = spawn(
      "sh",
      ["-c", `ulimit -n ${FD_LIMIT} && exec "$0" "$1" "$2"`, process.execPath, script, JSON.stringify(env)],
      { stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    child = started;
    return new Promise((resolve, reject) => {
      started.once("message", (message: { port: number }) => resolve(message.port));
      started.once("exit", (code) => reject(new Error(`the limited server exited (${code})`)));
    });
  }
  /** The descriptors the server has open (or the error it got counting them), or "no answer" within 2 s. */
  const fds = (): Promise<number | string> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve("no answer"), 2000);
      child!.once("message", (message: { fds: number | string }) => {
        clearTimeout(timer);
        resolve(message.fds);
      });
      child!.send("fds");
    });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("1,000 slow sockets from one address leave the server's descriptors free and another client served", async function () {
    const port = await startLimited({ REQUEST_TIMEOUT_S: "30", MAX_CONNECTIONS_PER_CLIENT: "64" });
    for (let batch = 0; batch < SOCKETS / 100; batch++) {
      const sockets = await Promise.all(
        Array.from({ length: 100 }, () => openSocket(port, "127.0.0.1", 2000).catch(() => null)),
      );
      for (const socket of sockets) {
        if (socket === null) continue;
        socket.on("error", () => undefined);
        socket.write(`${postHead(60_000)}{`, () => undefined);
        flood.push(socket);
      }
      await sleep(30);
    }
    const dribble = setInterval(() => {
      for (const socket of flood) if (!socket.destroyed) socket.write(" ", () => undefined);
    }, 250);
    try {
      await sleep(1000);
      const used = await fds();
      const fresh = [];
      for (let i = 0; i < 3; i++) {
        fresh.push(await request(port, "127.0.0.2", get("/api/v1/health"), 5000));
        await sleep(200);
      }
      console.log(
        `      ${SOCKETS} slow sockets from 127.0.0.1 against ${FD_LIMIT} descriptors: the server uses ${used}; ` +
          `127.0.0.2 served ${fresh.map((r) => `${r.status ?? "no answer"} in ${r.ms} ms`).join(", ")}`,
      );
      expect(used, "descriptors in use")
        .to.be.a("number")
        .below(FD_LIMIT - 64);
      for (const r of fresh) {
        expect(r.status).to.equal(200);
        expect(r.ms).to.be.below(1500);
      }
    } finally {
      clearInterval(dribble);
    }
  });
});
