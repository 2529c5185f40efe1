"use strict";
// Preloaded with `node --require` (directly or through NODE_OPTIONS) by the tests that check what a run-time path
// loads: when LOADED_MODULES_FILE is set, the main thread appends one JSON line at exit, {"argv", "modules"}, with
// every CommonJS module it loaded. Plain JavaScript, so that it loads nothing itself.
const { appendFileSync } = require("node:fs");
const { isMainThread } = require("node:worker_threads");

const out = process.env.LOADED_MODULES_FILE;
if (out && isMainThread) {
  process.on("exit", () => {
    appendFileSync(out, JSON.stringify({ argv: process.argv.slice(1), modules: Object.keys(require.cache) }) + "\n");
  });
}
