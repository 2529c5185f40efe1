// Builds @attestation-registry/contracts from the repository's one copy of each: the Solidity sources of contracts/
// (all but contracts/test/, the test harnesses) and the artifacts Hardhat compiled from them into artifacts/. Nothing
// here is kept by hand; the three output folders are generated (and ignored by git):
//   contracts/  the sources, byte for byte (NatSpec intact), at the paths they have in the repository
//   artifacts/  <Name>.json: Hardhat's artifact of each contract, interface and example (abi, bytecode, …)
//   abi/        <Name>.json: the artifact's ABI alone
// An artifact ships only if the compilation that produced it (its build-info) read exactly the shipped text of its
// source and of the repository sources that source imports: when one is stale or missing, the build runs
// `hardhat compile` in the repository once and checks again, and fails (shipping nothing) if it still is.
// Its test points it at another tree: CONTRACTS_PACKAGE_ROOT (the repository) and CONTRACTS_PACKAGE_OUT (the package).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = resolve(process.env.CONTRACTS_PACKAGE_OUT ?? here);
const root = resolve(process.env.CONTRACTS_PACKAGE_ROOT ?? join(here, "..", ".."));
const require = createRequire(import.meta.url);

/** The folder of contracts/ that holds the test harnesses; never shipped. */
const EXCLUDED = "contracts/test/";

/** Every .sol file under contracts/ but the harnesses, as repository-relative paths (`contracts/…`). */
function sources(dir = join(root, "contracts")) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith(".sol") ? [relative(root, path)] : [];
    })
    .filter((path) => !`${path}/`.startsWith(EXCLUDED))
    .sort();
}

/** The artifacts of one source (none for a file of structs and constants), each with the problem that stops it. */
function artifactsOf(source) {
  const dir = join(root, "artifacts", source);
  const shipped = new Map(sources().map((path) => [path, readFileSync(join(root, path), "utf8")]));
  if (!existsSync(dir)) return { artifacts: [], problem: needsArtifact(source) ? `no artifacts/${source}` : null };
  const artifacts = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".json") && !file.endsWith(".dbg.json"))) {
    const path = join(dir, name);
    const debug = JSON.parse(readFileSync(path.replace(/\.json$/, ".dbg.json"), "utf8"));
    const buildInfoPath = resolve(dir, debug.buildInfo);
    if (!existsSync(buildInfoPath)) return { artifacts, problem: `${relative(root, path)}: build-info missing` };
    const { input } = JSON.parse(readFileSync(buildInfoPath, "utf8"));
    if (input.sources[source] === undefined) return { artifacts, problem: `${source}: not in its build-info` };
    for (const sourceName of closure(source, shipped))
      if (input.sources[sourceName]?.content !== shipped.get(sourceName))
        return { artifacts, problem: `${relative(root, path)} was compiled from another ${sourceName}` };
    artifacts.push(path);
  }
  return { artifacts, problem: null };
}

/**
 * `source` and the repository sources it imports, directly or not: what its artifacts were compiled from (a build-info
 * also holds the other sources of its compilation job, which do not matter to them). Package imports (OpenZeppelin)
 * are the installed, pinned version.
 */
function closure(source, shipped, seen = new Set()) {
  if (seen.has(source)) return seen;
  if (!shipped.has(source)) throw new Error(`${[...seen].pop()} imports ${source}, which the package does not ship`);
  seen.add(source);
  for (const [, path] of shipped.get(source).matchAll(/^\s*import\s+(?:[^"';]*\s+from\s+)?"([^"]+)"\s*;/gm))
    if (path.startsWith(".")) closure(relative(root, resolve(root, dirname(source), path)), shipped, seen);
  return seen;
}

/** A source that declares a contract or an interface has an artifact. */
function needsArtifact(source) {
  return /^\s*(abstract\s+contract|contract|interface|library)\s/m.test(readFileSync(join(root, source), "utf8"));
}

function collect() {
  const found = sources().map((source) => ({ source, ...artifactsOf(source) }));
  return { found, problems: found.flatMap(({ problem }) => (problem ? [problem] : [])) };
}

let { found, problems } = collect();
if (problems.length > 0) {
  console.log(`contracts package: artifacts stale (${problems.join("; ")}); running hardhat compile`);
  execFileSync(process.execPath, [require.resolve("hardhat/internal/cli/bootstrap.js"), "compile", "--quiet"], {
    cwd: root,
    stdio: "inherit",
  });
  ({ found, problems } = collect());
  if (problems.length > 0) throw new Error(`contracts package: artifacts still stale: ${problems.join("; ")}`);
}

for (const dir of ["contracts", "artifacts", "abi"]) rmSync(join(pkg, dir), { recursive: true, force: true });
const names = new Set();
for (const { source, artifacts } of found) {
  mkdirSync(dirname(join(pkg, source)), { recursive: true });
  copyFileSync(join(root, source), join(pkg, source));
  for (const path of artifacts) {
    const artifact = JSON.parse(readFileSync(path, "utf8"));
    if (names.has(artifact.contractName)) throw new Error(`two artifacts named ${artifact.contractName}`);
    names.add(artifact.contractName);
    mkdirSync(join(pkg, "artifacts"), { recursive: true });
    mkdirSync(join(pkg, "abi"), { recursive: true });
    copyFileSync(path, join(pkg, "artifacts", basename(path)));
    writeFileSync(join(pkg, "abi", basename(path)), `${JSON.stringify(artifact.abi, null, 2)}\n`);
  }
}
console.log(
  `@attestation-registry/contracts built: ${found.length} sources, ${names.size} artifacts and ABIs (${[...names].join(", ")})`,
);
