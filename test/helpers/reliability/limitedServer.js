"use strict";
// The service's HTTP API from the compiled build (`npm run build`), over a fresh SQLite store in a temp folder, for
// tests that run it in a child process under `ulimit -n` (test/reliability/fdExhaustion.test.ts). argv[2]: the
// environment as JSON. Reports {"port"} to the parent over IPC, exits when the parent disconnects, and after 60 s at
// the latest. Plain JavaScript: `sh -c 'ulimit -n …; exec node …'` runs it with no TypeScript loader.
const { mkdtempSync, readdirSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");

// LIMITED_SERVER_DIST: another build's dist folder (to show the attack against an older version).
const dist = process.env.LIMITED_SERVER_DIST || join(__dirname, "..", "..", "..", "dist");
const { loadConfig } = require(join(dist, "config", "loadConfig"));
const { createServer } = require(join(dist, "service", "server"));
const { openStore } = require(join(dist, "storage", "openStore"));

(async () => {
  const dir = mkdtempSync(join(tmpdir(), "limited-server-"));
  const store = await openStore({ file: join(dir, "service.sqlite") });
  const config = loadConfig({ env: { LOG_LEVEL: "silent", ...JSON.parse(process.argv[2] || "{}") } });
  const attester = { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", registry: null };
  const app = await createServer({ store, config, attester });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const stop = () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", (message) => {
    if (message !== "fds") return;
    try {
      process.send({ fds: readdirSync("/proc/self/fd").length });
    } catch (error) {
      process.send({ fds: error.code }); // EMFILE: not one descriptor left
    }
  });
  process.on("disconnect", stop);
  setTimeout(stop, 60_000).unref();
  process.send({ port: app.server.address().port });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
