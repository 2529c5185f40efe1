#!/usr/bin/env node
// Runs the Foundry suite with the platform forge binary (the npm shim node_modules/.bin/forge exits 0 even when
// tests fail). Fails when forge exits non-zero OR its summary reports a failed test or no test at all.
// `--selftest`: runs the deliberately failing profile and succeeds only if that run is reported as failed.
// `--project <dir>`: runs in another Foundry project (its own foundry.toml) instead of the repository's.
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const PLATFORMS = { "linux-x64": "@foundry-rs/forge-linux-amd64" };

function forgeBinary() {
  const pkg = PLATFORMS[`${process.platform}-${process.arch}`];
  if (!pkg) {
    throw new Error(
      `run-forge: no forge binary package for ${process.platform}-${process.arch} (supported: linux-x64)`,
    );
  }
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), "bin", "forge");
}

/** Runs forge test under a profile; returns whether the run passed (exit 0 and a clean summary). */
function runForge(profile, extraArgs, cwd = root) {
  const res = spawnSync(forgeBinary(), ["test", ...extraArgs], {
    cwd,
    env: { ...process.env, FOUNDRY_PROFILE: profile, FOUNDRY_OFFLINE: "true" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(res.stdout ?? "");
  process.stderr.write(res.stderr ?? "");
  if (res.error) throw res.error;
  const out = `${res.stdout}\n${res.stderr}`;
  const summary = /Ran \d+ test suites?.*?(\d+) tests? passed, (\d+) failed/s.exec(out);
  const passedSummary = summary !== null && Number(summary[1]) > 0 && Number(summary[2]) === 0;
  return { ok: res.status === 0 && passedSummary, status: res.status, summary: summary?.[0] ?? "(no summary)" };
}

function main() {
  const args = process.argv.slice(2);
  let cwd = root;
  const project = args.indexOf("--project");
  if (project !== -1) {
    if (args[project + 1] === undefined) throw new Error("run-forge: --project needs a directory");
    cwd = path.resolve(args.splice(project, 2)[1]);
  }
  if (args[0] === "--selftest") {
    const r = runForge("selftest", []);
    if (r.ok || r.status === 0) {
      console.error(
        `run-forge self-test: the deliberately failing suite was not reported as failed (exit ${r.status})`,
      );
      process.exit(1);
    }
    console.log(`run-forge self-test: the failing suite fails the run (exit ${r.status}) as it must`);
    return;
  }
  const profile = process.env.FOUNDRY_PROFILE || "default";
  const r = runForge(profile, args, cwd);
  if (!r.ok) {
    console.error(`run-forge: Foundry suite failed (exit ${r.status}; ${r.summary})`);
    process.exit(1);
  }
}

main();
