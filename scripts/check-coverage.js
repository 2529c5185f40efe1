#!/usr/bin/env node
// `npm run coverage` then this: fails unless every statement, branch, function and line of the contracts is covered
// (the README's 100 %; solidity-coverage prints the table but exits 0 below it). Reads ./coverage.json (Istanbul's
// format: per file, hit counts by statement `s`, branch `b` (one count per arm) and function `f`).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const file = process.argv[2] ?? "coverage.json";
const coverage = JSON.parse(fs.readFileSync(file, "utf8"));
const missed = [];
for (const [source, data] of Object.entries(coverage)) {
  const name = path.relative(process.cwd(), source);
  for (const [id, hits] of Object.entries(data.s)) {
    if (hits === 0) missed.push(`${name}:${data.statementMap[id].start.line} statement not run`);
  }
  for (const [id, arms] of Object.entries(data.b)) {
    arms.forEach((hits, arm) => {
      if (hits === 0) missed.push(`${name}:${data.branchMap[id].line} branch arm ${arm} never taken`);
    });
  }
  for (const [id, hits] of Object.entries(data.f)) {
    if (hits === 0) missed.push(`${name}:${data.fnMap[id].line} function ${data.fnMap[id].name} never called`);
  }
}
if (missed.length > 0) {
  console.error(`coverage below 100 % (${file}):\n  ${missed.join("\n  ")}`);
  process.exit(1);
}
console.log(`coverage: every statement, branch and function of ${Object.keys(coverage).length} files covered`);
