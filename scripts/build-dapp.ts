/**
 * Builds the dapp's client bundle (`src/web/client/`) into `dist/dapp/` (gitignored), where the service loads it.
 *
 * Usage: `npm run build:dapp` (= `ts-node --transpile-only scripts/build-dapp.ts`). `npm run build` (and so `npm ci` and `npm test`) runs it
 * first. Prints one line; on failure, one line naming the problem and exit code 1.
 */
import { relative } from "node:path";
import { DAPP_BUILD_DIR } from "../src/web/assets";
import { buildDappBundle } from "../src/web/bundle";

/** Builds the bundle into {@link DAPP_BUILD_DIR} and returns the one line to print. */
export async function buildDapp(outDir: string = DAPP_BUILD_DIR): Promise<string> {
  const started = Date.now();
  const files = await buildDappBundle({ outDir });
  const sizes = [...files].map(([name, contents]) => `${name} ${(contents.byteLength / 1024).toFixed(1)} KiB`);
  return `built the dapp bundle in ${relative(process.cwd(), outDir) || "."}: ${sizes.join(", ")} (${Date.now() - started} ms)`;
}

if (require.main === module) {
  buildDapp()
    .then((line) => console.log(line))
    .catch((error: unknown) => {
      const first = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      console.error(`build-dapp: ${first}`);
      process.exit(1);
    });
}
