import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import type { DappBundle } from "./bundle";
import type { AssetUrls } from "./layout";

/**
 * Where `npm run build` (its `build:dapp` step) writes the client bundle and where the service looks for it: `dist/dapp`
 * at the top of the checkout, the same folder from the sources (`src/web`) and from the compiled code (`dist/web`).
 */
export const DAPP_BUILD_DIR = resolve(__dirname, "..", "..", "dist", "dapp");

/** The URL prefix of the bundle's files. */
export const ASSET_PREFIX = "/app/assets/";

/** The two files the pages load, by their name in the bundle. */
const FILES = { script: "app.js", style: "styles.css" } as const;

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** One served file: its bytes, content type and strong ETag. */
export type DappAsset = { body: Buffer; type: string; etag: string };

/** The loaded bundle: the content-hashed URLs the pages link and the file behind each URL name. */
export type DappAssets = {
  urls: AssetUrls;
  /** The file served at `/app/assets/<name>` (a content-hashed name), or undefined. */
  get(name: string): DappAsset | undefined;
  /** Where the files came from: the build folder, or (from the TypeScript sources only) built in memory. */
  source: "build" | "memory";
};

export type LoadDappAssetsParameters = {
  /** Default {@link DAPP_BUILD_DIR}, which `npm run build:dapp` writes. */
  dir?: string;
  /** Called with one line when the folder holds no bundle and it is built in memory instead. */
  onBuild?: (line: string) => void;
};

/**
 * Loads the client bundle that `npm run build` wrote. When the folder has none and the service runs from its
 * TypeScript sources (tests, scripts), the bundle is built in memory with the same function, once per process, and
 * `onBuild` is told; the compiled service (`dist/`) never loads the bundler and refuses to start instead, naming the
 * command that builds it. The service never serves a page that links a file it cannot serve. Each file is served under a name carrying a hash of
 * its bytes (`app.3f2a…9c.js`), so a page always gets its own bundle and the file can be cached for a year.
 *
 * @param parameters {@link LoadDappAssetsParameters}
 * @returns {@link DappAssets}
 */
export async function loadDappAssets({
  dir = DAPP_BUILD_DIR,
  onBuild,
}: LoadDappAssetsParameters = {}): Promise<DappAssets> {
  const names = Object.values(FILES);
  let files: DappBundle;
  let source: DappAssets["source"];
  if (names.every((name) => existsSync(join(dir, name)))) {
    files = new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
    source = "build";
  } else {
    if (!FROM_SOURCES) throw new Error(`The dapp bundle is not in ${dir}: run \`npm run build\` to build it.`);
    onBuild?.(
      `The dapp bundle is not in ${dir}: building it in memory (run \`npm run build:dapp\` to build it ahead).`,
    );
    files = await buildInMemory();
    source = "memory";
  }
  const served = new Map<string, DappAsset>();
  const urlOf = (name: string): string => {
    const contents = files.get(name);
    if (contents === undefined) throw new Error(`The dapp bundle has no ${name}: run \`npm run build\`.`);
    const hash = createHash("sha256").update(contents).digest("hex").slice(0, 16);
    const dot = name.lastIndexOf(".");
    const hashed = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
    served.set(hashed, { body: Buffer.from(contents), type: TYPES[name.slice(dot)], etag: `"${hash}"` });
    return `${ASSET_PREFIX}${hashed}`;
  };
  const urls = { script: urlOf(FILES.script), style: urlOf(FILES.style) };
  return { urls, get: (name) => served.get(name), source };
}

/** True when this module runs from `src/` through a TypeScript hook, false when it runs compiled from `dist/`. */
const FROM_SOURCES = extname(__filename) === ".ts";

let inMemory: Promise<DappBundle> | undefined;

/** One in-memory build per process (test suites build many apps); the bundler is loaded only here. */
function buildInMemory(): Promise<DappBundle> {
  inMemory ??= import("./bundle")
    .then(({ buildDappBundle }) => buildDappBundle())
    .catch((error: unknown) => {
      inMemory = undefined;
      throw error;
    });
  return inMemory;
}
