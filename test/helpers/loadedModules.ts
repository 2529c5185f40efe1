import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The preload script that records what a process loaded (see loadedModulesProbe.js beside this file). */
export const LOADED_MODULES_PROBE = join(__dirname, "loadedModulesProbe.js");

/** Compilers, bundlers and TypeScript hooks: none may load on a run-time path. */
export const BUILD_TIME_ONLY = /[\\/]node_modules[\\/](ts-node|typescript|esbuild|@esbuild|tsx|@swc)[\\/]/;

/** One process's record: its arguments and every CommonJS module its main thread loaded. */
export type LoadedModules = { argv: string[]; modules: string[] };

/** The records a probed run wrote to `file`, one per process that exited. */
export function readLoadedModules(file: string): LoadedModules[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoadedModules);
}
