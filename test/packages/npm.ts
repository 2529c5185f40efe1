import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const ROOT = join(__dirname, "..", "..");

/**
 * The environment for a child npm: this process's, without the `npm_*` variables `npm run` sets (a child npm would
 * read `npm_config_local_prefix` and the like as its own configuration and act on this repository).
 */
export function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name)) env[name] = value;
  return { ...env, NPM_CONFIG_UPDATE_NOTIFIER: "false", NPM_CONFIG_FUND: "false", NPM_CONFIG_AUDIT: "false" };
}

/** Runs a command (in {@link npmEnvironment}, plus `env`); its error carries the command's output. */
export async function exec(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd, env: { ...npmEnvironment(), ...env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} (in ${cwd}) failed:\n${stderr ?? ""}\n${stdout ?? ""}`);
  }
}

export const npm = (args: string[], cwd: string) => exec("npm", args, cwd);

export type PackedFile = { path: string; size: number };
export type Packed = { tarball: string; size: number; unpackedSize: number; files: PackedFile[] };

/**
 * `npm pack` of one workspace into `destination`, lifecycle scripts included (`prepack` builds or copies what the
 * package ships): the tarball and npm's own list of what it holds.
 */
export async function pack(workspace: string, destination: string): Promise<Packed> {
  const { stdout } = await npm(["pack", "-w", workspace, "--pack-destination", destination, "--json"], ROOT);
  // A prepack script's own output comes first; npm's JSON report is the array at the end.
  const [report] = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: PackedFile[];
  }[];
  return {
    tarball: join(destination, report.filename),
    size: report.size,
    unpackedSize: report.unpackedSize,
    files: report.files,
  };
}

/** Every package in a project's node_modules (nested ones included), as `name@version`. */
export async function installedPackages(project: string): Promise<string[]> {
  const { stdout } = await npm(["ls", "--all", "--json", "--omit=dev"], project);
  const found = new Set<string>();
  const walk = (dependencies: Record<string, { version?: string; dependencies?: object }> | undefined) => {
    for (const [name, node] of Object.entries(dependencies ?? {})) {
      // An optional peer dependency nobody installed (viem's typescript, abitype's zod) is listed without a version.
      if (node.version === undefined) continue;
      found.add(`${name}@${node.version}`);
      walk(node.dependencies as Record<string, { version?: string; dependencies?: object }> | undefined);
    }
  };
  walk((JSON.parse(stdout) as { dependencies?: Record<string, { version?: string }> }).dependencies);
  return [...found].sort();
}
