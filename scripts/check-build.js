#!/usr/bin/env node
"use strict";
/**
 * `npm start`'s first step (prestart): checks that the build `npm ci` made (`npm run build`) is there, in well under
 * a tenth of a second, and says in one line what to run when it is not. When a source file is newer than the
 * compiled code it warns (the service still starts, from the last build): `npm run build` or `npm run dev` rebuilds.
 */
const { existsSync, readdirSync, statSync } = require("node:fs");
const { join, relative } = require("node:path");

const root = join(__dirname, "..");
const NEEDED = [
  "dist/main/start.js",
  "dist/cli/main.js",
  "dist/dapp/app.js",
  "artifacts/contracts/AttestationRegistry.sol/AttestationRegistry.json",
];
// The compiled service loads @attestation-registry/sdk by its name: node_modules/@attestation-registry/sdk, the
// workspace link to packages/sdk, whose built copy (packages/sdk/dist) `npm run build` makes first. Resolved as node
// resolves it at run time (a missing build throws), without loading it.
const SDK_ENTRIES = [
  "@attestation-registry/sdk",
  "@attestation-registry/sdk/errors",
  "@attestation-registry/sdk/internal",
];

const missing = NEEDED.filter((file) => !existsSync(join(root, file)));
for (const name of SDK_ENTRIES) {
  try {
    require.resolve(name, { paths: [root] });
  } catch {
    missing.push(`${name} (packages/sdk/dist)`);
  }
}
if (missing.length > 0) {
  process.stderr.write(`start: the build is missing (${missing.join(", ")}): run \`npm run build\` first\n`);
  process.exit(1);
}

/** The newest modification time under a folder, in milliseconds. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// The dapp bundle is the build's last step, written on every build: older than a source file means a stale build.
const built = statSync(join(root, "dist/dapp/app.js"));
if (newest(join(root, "src")) > built.mtimeMs) {
  process.stderr.write(
    `start: ${relative(process.cwd(), join(root, "src")) || "src"} changed since the last build: ` +
      "this runs the last build (`npm run build` rebuilds, `npm run dev` rebuilds on every change)\n",
  );
}
