#!/usr/bin/env node
"use strict";
// `npx attest`: runs the compiled CLI in dist/ with plain node (no compiler at run time). `npm ci` builds dist/
// (the `prepare` script); `npm run build` builds it again after a change to src/.
let cli;
try {
  cli = require("../dist/cli/main.js");
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/main.js")) {
    process.stderr.write("attest: the compiled CLI is missing (dist/cli/main.js): run `npm run build` first\n");
    process.exit(1);
  }
  throw error;
}
// A reader that goes away (`attest --help | head -3`) ends the output, not the process with a stack trace: the write
// that hits the closed pipe is dropped. `verify --batch` listens too, and stops its run with one line of its own.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
});
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
