import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The size budget of a browser bundle that imports only `verifyAttestation` from the SDK (issue 32). */
export const SDK_VERIFY_BUNDLE_BUDGET_BYTES = 25 * 1024;

export type SdkBundleSize = {
  /** What the bundle imports, as a consumer writes it. */
  entry: string;
  /** The minified bundle (esbuild, browser platform, ES module), in bytes. */
  minifiedBytes: number;
  /** That bundle gzipped (level 9), in bytes. */
  gzippedBytes: number;
  /** The packages the bundle holds code of, with their share of the minified output in bytes, largest first. */
  packages: { name: string; bytes: number }[];
};

/** The package a bundled input belongs to (`node_modules/<scope>/<name>/…`), or `sdk` for the SDK's own files. */
function packageOf(input: string): string {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return "(sdk)";
  const rest = input.slice(at + "node_modules/".length).split("/");
  const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  return name === "@attestation-registry/sdk" ? "(sdk)" : name;
}

/**
 * Bundles, for the browser, a module that imports only `verifyAttestation` from `@attestation-registry/sdk` as
 * resolved from `resolveDir` (the repository's workspace link, or a project the SDK's tarball was installed in), and
 * measures it minified and gzipped, as a consumer's bundler would ship it.
 */
export async function measureSdkVerifyBundle(resolveDir: string): Promise<SdkBundleSize> {
  const entry = 'import { verifyAttestation } from "@attestation-registry/sdk";';
  const result = await build({
    stdin: { contents: `${entry}\nglobalThis.verifyAttestation = verifyAttestation;\n`, resolveDir, loader: "js" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    outfile: "verify-only.js",
  });
  const code = result.outputFiles[0].contents;
  const shares = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      shares.set(packageOf(input), (shares.get(packageOf(input)) ?? 0) + bytesInOutput);
  return {
    entry,
    minifiedBytes: code.byteLength,
    gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
    packages: [...shares].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
  };
}
