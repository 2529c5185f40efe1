import { spawn, type ChildProcess } from "node:child_process";
import { baseEnv, ROOT } from "../e2e/mainJob";

/**
 * The message of one log line, whichever way the process writes it: a JSON object per line (`{"level":30,"time":…,
 * "msg":"…"}`, docs/operations.md#probes-metrics-and-logs) gives its `msg`; a plain line (`[2026-…Z] text`) gives the
 * text after its time stamp.
 */
export function messageOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("{")) {
    try {
      const parsed = JSON.parse(trimmed) as { msg?: unknown };
      if (typeof parsed.msg === "string") return parsed.msg;
    } catch {
      // Not JSON after all: a plain line that starts with a brace.
    }
  }
  return trimmed.replace(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] /, "");
}

/** How a process ended: its exit code, or the signal that ended it. */
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * One compiled entry of the project (`dist/…`, built by `npm run build`) in a child process, with its output kept
 * line by line: wait for a message, stop it with SIGTERM or kill it with SIGKILL, and see how it exited.
 */
export class ClusterProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote, stdout and stderr, in arrival order. */
  output = "";
  readonly exited: Promise<Exit>;
  private exit: Exit | null = null;

  /**
   * @param name - for messages (`worker-a`, `demo:chains`).
   * @param script - the compiled entry, relative to the repository root (`dist/main/start.js`).
   * @param env - added to the test's environment without anything that configures the service ({@link baseEnv}).
   */
  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return this.exit === null;
  }

  /** The messages of every complete line so far ({@link messageOf}). */
  messages(): string[] {
    const lines = this.output.split("\n");
    lines.pop(); // the line being written, if any
    return lines.filter((line) => line.trim() !== "").map(messageOf);
  }

  /**
   * Resolves with the first message matching `pattern` (a RegExp, or a substring) and its match, at or after message
   * number `from` (so a test can wait for the next occurrence); rejects when the process exits first or after
   * `timeoutMs`, with its output.
   */
  async waitFor(
    pattern: RegExp | string,
    options: { timeoutMs?: number; from?: number } = {},
  ): Promise<{ message: string; match: RegExpMatchArray; index: number }> {
    const { timeoutMs = 60_000, from = 0 } = options;
    const regexp = typeof pattern === "string" ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : pattern;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const messages = this.messages();
      for (let index = from; index < messages.length; index++) {
        const match = messages[index].match(regexp);
        if (match) return { message: messages[index], match, index };
      }
      if (!this.running)
        throw new Error(`${this.name} exited (${describeExit(this.exit!)}) before ${regexp}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.name}: timed out waiting for ${regexp}:\n${this.output}`);
      await sleep(100);
    }
  }

  /** SIGKILL (`kill -9`): the process gets no chance to clean up. Resolves when it is gone. */
  async kill9(): Promise<Exit> {
    if (this.running) this.child.kill("SIGKILL");
    return this.exited;
  }

  /** Sends SIGTERM and returns at once (the test watches what happens next); see {@link ClusterProcess.exited}. */
  term(): void {
    if (this.running) this.child.kill("SIGTERM");
  }

  /** SIGTERM, then SIGKILL if the process is still running after `graceMs`. Resolves when it is gone. */
  async stop(graceMs = 15_000): Promise<Exit> {
    this.term();
    const timer = setTimeout(() => {
      if (this.running) this.child.kill("SIGKILL");
    }, graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}

/** `exit 0`, `signal SIGKILL`. */
export function describeExit(exit: Exit): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `exit ${exit.code}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
