#!/usr/bin/env node
"use strict";
// Runs the TypeScript CLI straight from src/ (no build step), so `npx attest` works right after `npm ci`.
const path = require("node:path");
require("ts-node").register({
  transpileOnly: true,
  project: path.join(__dirname, "..", "tsconfig.json"),
});
require("../src/cli/main")
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
