import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

export const ROOT = resolve(__dirname, "../../..");

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * The test process's environment without anything that configures the service, Hardhat, ts-node or npm (mocha may
 * run under `npm run`, whose variables would reach a nested `npm start`).
 */
export function baseEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        !/^(RPC_URL_|POOLS_FILE|ATTESTER_|REGISTRY_|DATABASE_URL|API_KEYS|DEFILLAMA_|MERKL_|HARDHAT_|TS_NODE_|npm_)/.test(
          entry[0],
        ),
    ),
  );
}

/**
 * The messages of a process's output: each line that is a JSON log object (the service's lines and the HTTP server's,
 * docs/operations.md#probes-metrics-and-logs) as its `msg`, any other line (npm's banner, an error printed before the
 * configuration is read) as is. Tests match these, so that a message with quotes reads as written.
 */
export function logMessages(output: string): string {
  return output
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) return line;
      try {
        const parsed = JSON.parse(line) as { msg?: unknown };
        return typeof parsed.msg === "string" ? parsed.msg : line;
      } catch {
        return line;
      }
    })
    .join("\n");
}

/** Every line of `output` that is not one JSON log object with pino's `level`, `time` and `msg` (want none). */
export function nonJsonLines(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => line !== "")
    .filter((line) => {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        return !(typeof parsed.level === "number" && typeof parsed.time === "number" && typeof parsed.msg === "string");
      } catch {
        return true;
      }
    });
}

/** The main job as `npm start` runs it (`node dist/main/start.js`, the compiled build), in a child process. */
export class MainJob {
  readonly child: ChildProcess;
  /** What the process wrote to stdout (JSON log lines). */
  stdout = "";
  /** What it wrote to stderr. */
  stderr = "";
  /** Both, in arrival order, as written. */
  raw = "";
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ["dist/main/start.js"], {
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.raw += chunk.toString();
    });
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.raw += chunk.toString();
    });
    this.exited = new Promise((done) => this.child.once("exit", (code) => done(code)));
  }

  /** The output's messages ({@link logMessages}): what the tests match. */
  get output(): string {
    return logMessages(this.raw);
  }

  /** Resolves with the output once `pattern` appears; rejects if the job exits first or after `timeoutMs`. */
  async waitFor(pattern: RegExp, timeoutMs = 120_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (exited) throw new Error(`main job exited before ${pattern}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.output}`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}
