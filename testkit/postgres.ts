import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A throwaway PostgreSQL cluster on loopback for tests (initdb + postgres from the machine's PostgreSQL 15). */
export interface TestPostgres {
  url: string;
  /** Stops the server (fast shutdown: sessions end with 57P01), waits `downMs`, and starts it again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL's server binaries: on PATH if linked there, else Debian's `/usr/lib/postgresql/<version>/bin`. */
function pgBinary(name: "initdb" | "postgres"): string {
  const onPath = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = join(root, version, "bin", name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    `PostgreSQL's ${name} was not found: install Debian's postgresql package (apt-get install -y postgresql)`,
  );
}

/** PostgreSQL refuses to run as root: drop to the `postgres` user when we are root. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", command, ...args]];
}

/**
 * Starts a cluster of its own. Tests use {@link sharedPostgres} (or {@link freshPostgresUrl}, or `forEachBackend`):
 * one cluster per test run instead of one per file.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "pgtest-"));
  if (process.getuid?.() === 0) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, "data");
  const [initCmd, initArgs] = asPostgresUser(pgBinary("initdb"), [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child = await launch({ data, dir, port, url });
  /** Sends `signal`; a server still running `graceMs` later is killed (SIGKILL). */
  const halt = async (signal: NodeJS.Signals, graceMs: number) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    if ((await Promise.race([exited, late])) === "late") {
      child.kill("SIGKILL");
      await exited;
    }
    clearTimeout(timer);
  };
  return {
    url,
    async restart({ downMs = 0 } = {}) {
      await halt("SIGINT", 60_000); // fast shutdown: every session is ended with 57P01, as `pg_ctl restart -m fast` does
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      child = await launch({ data, dir, port, url });
    },
    async stop() {
      // Immediate shutdown: the cluster is thrown away, so no shutdown checkpoint is worth waiting for (on a loaded
      // machine, a fast shutdown after a whole run's databases once outlasted mocha's 120 s hook timeout).
      await halt("SIGQUIT", 10_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `postgres` on a cluster's data folder and waits until it accepts a connection (30 s at most). */
async function launch(parameters: { data: string; dir: string; port: number; url: string }): Promise<ChildProcess> {
  const { data, dir, port, url } = parameters;
  const [cmd, args] = asPostgresUser(pgBinary("postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "max_connections=200", // one cluster serves the whole run: room for the stores a file leaves open
  ]);
  const child: ChildProcess = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return child;
    } catch {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`postgres did not start: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let shared: Promise<TestPostgres> | null = null;

/**
 * The test run's one throwaway cluster: started on first use, stopped after the whole run (a root `after` hook,
 * registered when a test file first imports this module). Tests do not share data on it: each takes a database of its
 * own with {@link freshPostgresUrl}.
 */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= startPostgres();
  return shared;
}

if (typeof after === "function") {
  after(async function () {
    if (!shared) return;
    const server = await shared.catch(() => null);
    shared = null;
    await server?.stop();
  });
}

let databases = 0;

/** A new, empty database on the shared cluster (call it in a hook allowed 60 s: the cluster may start first). */
export async function freshPostgresUrl(): Promise<string> {
  const server = await sharedPostgres();
  const name = `test${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}
