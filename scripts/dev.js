#!/usr/bin/env node
"use strict";
/**
 * `npm run dev`: builds once, then rebuilds on every change and restarts the service on the new build.
 * - `tsc --watch` recompiles src/ into dist/ (tsconfig.build.json);
 * - a second `tsc --watch` recompiles the SDK's CommonJS build (packages/sdk/dist/cjs, from src/lib, actions, abi and
 *   their errors), which the compiled service loads by the name `@attestation-registry/sdk`;
 * - a change under src/web/client/ rebuilds the dapp bundle into dist/dapp/;
 * - `node --watch-path=dist --watch-path=packages/sdk/dist` restarts dist/main/start.js whenever either changes.
 * Configuration comes from the environment, as for `npm start`. Ctrl-C stops all three.
 */
const { spawn, spawnSync } = require("node:child_process");
const { watch } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tsc = join(root, "node_modules", ".bin", "tsc");

const first = spawnSync(npm, ["run", "build"], { cwd: root, stdio: "inherit" });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  spawn(tsc, ["-p", "tsconfig.build.json", "--watch", "--preserveWatchOutput"], { cwd: root, stdio: "inherit" }),
  spawn(tsc, ["-p", "packages/sdk/tsconfig.json", "--watch", "--preserveWatchOutput"], { cwd: root, stdio: "inherit" }),
  spawn(
    process.execPath,
    ["--watch-path=dist", "--watch-path=packages/sdk/dist", "--watch-preserve-output", "dist/main/start.js"],
    { cwd: root, stdio: "inherit" },
  ),
];

let pending = null;
watch(join(root, "src", "web", "client"), { recursive: true }, () => {
  clearTimeout(pending);
  pending = setTimeout(() => spawn(npm, ["run", "--silent", "build:dapp"], { cwd: root, stdio: "inherit" }), 200);
});

const stop = (signal) => {
  for (const child of children) child.kill(signal);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
