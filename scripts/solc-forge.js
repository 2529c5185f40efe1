#!/usr/bin/env node
// The `solc` that foundry.toml names: forge runs it offline. `--version` prints the pinned compiler's version in
// the native solc format forge parses; otherwise standard JSON is read from stdin, compiled with the `solc` npm
// package (imports resolved from the project and node_modules) and written to stdout.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const solc = require("solc");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
if (args.includes("--version")) {
  const long = solc.version().replace(/\.Emscripten\.clang$/, ".Linux.g++");
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${long}\n`);
  process.exit(0);
}
if (!args.includes("--standard-json")) {
  process.stderr.write("solc-forge: only --version and --standard-json are supported\n");
  process.exit(2);
}
const bases = [root, path.join(root, "node_modules")];
const allowed = (p) => bases.some((b) => p === b || p.startsWith(b + path.sep));
function findImports(name) {
  for (const b of bases) {
    const p = path.resolve(b, name);
    if (allowed(p) && fs.existsSync(p)) return { contents: fs.readFileSync(p, "utf8") };
  }
  return { error: `File not found: ${name}` };
}
const input = fs.readFileSync(0, "utf8");
process.stdout.write(solc.compile(input, { import: findImports }));
