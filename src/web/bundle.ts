import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";

/** The client sources: one script entry and one stylesheet. */
const ENTRY_POINTS = {
  app: resolve(__dirname, "client", "main.ts"),
  styles: resolve(__dirname, "client", "styles.css"),
};

/** The files of a built bundle, by name (`app.js`, `styles.css`). */
export type DappBundle = Map<string, Uint8Array>;

export type BuildDappBundleParameters = {
  /** Write the files there as well (the build script passes `DAPP_BUILD_DIR`); default: in memory only. */
  outDir?: string;
};

/**
 * Modules the browser bundle must never contain. The library's signature path may lazily `require("secp256k1")`
 * (a native addon, for speed in Node): in the browser that require gets `null`, and the library falls back to its
 * pure-JS path (@noble/curves). Any `node:` builtin reaching the bundle is a build error, so server code cannot
 * slip into the page by an import.
 */
const browserOnly: Plugin = {
  name: "browser-only",
  setup(b) {
    b.onResolve({ filter: /^secp256k1$/ }, () => ({ path: "secp256k1", namespace: "dapp-stub" }));
    b.onLoad({ filter: /.*/, namespace: "dapp-stub" }, () => ({ contents: "module.exports = null;", loader: "js" }));
    b.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [
        { text: `${args.path} is Node-only and cannot be bundled for the browser (imported by ${args.importer})` },
      ],
    }));
  },
};

/**
 * Builds the dapp's client bundle with esbuild: `src/web/client/main.ts` (the page scripts, the library's
 * `verifyAttestation`, viem's `createSiweMessage`) to one minified IIFE `app.js` for current browsers, and
 * `src/web/client/styles.css` to `styles.css`. Nothing is fetched from a third party at run time: the pages load
 * only these two files, from this service.
 *
 * @param parameters {@link BuildDappBundleParameters}
 * @returns the built files by name.
 * @example
 * import { DAPP_BUILD_DIR } from "./src/web/assets";
 * import { buildDappBundle } from "./src/web/bundle";
 * await buildDappBundle({ outDir: DAPP_BUILD_DIR });
 */
export async function buildDappBundle({ outDir }: BuildDappBundleParameters = {}): Promise<DappBundle> {
  const result = await build({
    entryPoints: ENTRY_POINTS,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    minify: true,
    legalComments: "eof",
    write: false,
    outdir: "/dapp",
    logLevel: "silent",
    plugins: [browserOnly],
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const files: DappBundle = new Map(result.outputFiles.map((file) => [basename(file.path), file.contents]));
  if (outDir !== undefined) {
    mkdirSync(outDir, { recursive: true });
    for (const [name, contents] of files) writeFileSync(join(outDir, name), contents);
  }
  return files;
}
