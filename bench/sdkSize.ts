/**
 * The SDK's weight in a browser bundle: builds packages/sdk (its `build` script), then bundles, for the browser, a
 * module that imports only `verifyAttestation` from `@attestation-registry/sdk` (esbuild, minified) and prints its
 * size minified and gzipped, and each package's share. Budget: 25 kB (25,600 bytes) gzipped; exits 1 above it.
 * test/packages/sdk.test.ts measures the same on the SDK's tarball installed in a fresh project.
 *
 * Run with `npm run bench:sdk-size` (SKIP_SDK_BUILD=1 measures the build already in packages/sdk/dist).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { measureSdkVerifyBundle, SDK_VERIFY_BUNDLE_BUDGET_BYTES } from "../testkit/sdkBundleSize";

const ROOT = join(__dirname, "..");

async function main(): Promise<void> {
  if (process.env.SKIP_SDK_BUILD !== "1")
    execFileSync(process.execPath, [join(ROOT, "packages", "sdk", "scripts", "build.mjs")], { stdio: "inherit" });
  const size = await measureSdkVerifyBundle(ROOT);
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(`\n\`${size.entry}\`, bundled for the browser by esbuild\n`);
  console.log("| measure | bytes | kB |");
  console.log("|---|---:|---:|");
  console.log(`| minified | ${size.minifiedBytes} | ${kB(size.minifiedBytes)} |`);
  console.log(`| minified + gzip -9 | ${size.gzippedBytes} | ${kB(size.gzippedBytes)} |`);
  console.log(`| budget (gzipped) | ${SDK_VERIFY_BUNDLE_BUDGET_BYTES} | ${kB(SDK_VERIFY_BUNDLE_BUDGET_BYTES)} |`);
  console.log("\n| package | minified bytes in the bundle |");
  console.log("|---|---:|");
  for (const { name, bytes } of size.packages) console.log(`| ${name} | ${bytes} |`);
  const within = size.gzippedBytes <= SDK_VERIFY_BUNDLE_BUDGET_BYTES;
  console.log(`\n${within ? "within" : "OVER"} the budget`);
  if (!within) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
