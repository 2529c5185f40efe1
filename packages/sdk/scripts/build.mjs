// Builds @attestation-registry/sdk from the one copy of the library in the repository's src/ (lib, actions, abi and
// the errors they throw); nothing is copied into this package's sources.
//   dist/cjs: CommonJS and the .d.ts, by tsc (tsconfig.json: rootDir ../../src, only the entry points' import closure)
//   dist/esm: ES modules (.mjs), by esbuild, one output file per source module (so `sideEffects: false` lets a
//             bundler drop every module a consumer does not reach), relative imports rewritten to .mjs, packages
//             left as imports.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const src = resolve(pkg, "..", "..", "src");
const require = createRequire(import.meta.url);
const esbuild = require("esbuild");

/** The public entry points: `exports` subpath → source module. */
export const ENTRIES = {
  ".": "index.ts",
  "./abi": "abi/attestationRegistryAbi.ts",
  // BaseError and the error formatters alone (loads nothing else of the SDK).
  "./errors": "errors/core.ts",
  // Not a public API: the modules the service and the CLI of this repository use beyond the public ones.
  "./internal": "internal.ts",
};

rmSync(join(pkg, "dist"), { recursive: true, force: true });

// CommonJS + declarations.
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(pkg, "tsconfig.json")], {
  stdio: "inherit",
});

/** `./x` from `importer` → the source file it names (x.ts or x/index.ts). */
function sourceOf(importer, specifier) {
  const base = resolve(dirname(importer), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  if (existsSync(base) && statSync(base).isFile()) return base;
  throw new Error(`${relative(src, importer)}: cannot resolve ${specifier}`);
}

// Pass 1: the import closure of the entry points (the modules the ES build must hold).
const closure = await esbuild.build({
  entryPoints: Object.values(ENTRIES).map((file) => join(src, file)),
  bundle: true,
  write: false,
  metafile: true,
  platform: "neutral",
  packages: "external",
  outdir: "/tmp/unused",
  logLevel: "silent",
});
const modules = Object.keys(closure.metafile.inputs).map((input) => resolve(input));
for (const module of modules)
  if (!module.startsWith(src + "/")) throw new Error(`the SDK would ship a module outside src/: ${module}`);

// Pass 2: each module on its own, its relative imports kept as imports of the sibling .mjs files.
await esbuild.build({
  entryPoints: modules,
  outbase: src,
  outdir: join(pkg, "dist", "esm"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  packages: "external",
  sourcemap: false,
  logLevel: "warning",
  // Lets lib/internal/nativeRecover.ts make a `require` for the optional native backend on Node.
  // An ES module has no `require` (esbuild would otherwise put in a stub that throws).
  define: { __ATTESTATION_SDK_ESM_URL__: "import.meta.url", require: "undefined" },
  plugins: [
    {
      name: "keep-modules",
      setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          if (args.kind === "entry-point") return undefined;
          const target = sourceOf(args.importer, args.path);
          let path = relative(dirname(args.importer), target).replace(/\.ts$/, ".mjs");
          if (!path.startsWith(".")) path = `./${path}`;
          return { path, external: true };
        });
      },
    },
  ],
});

console.log(`@attestation-registry/sdk built: dist/cjs (tsc), dist/esm (${modules.length} modules, esbuild)`);
