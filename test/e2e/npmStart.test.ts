import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "chai";
import { BUILD_TIME_ONLY, LOADED_MODULES_PROBE, readLoadedModules } from "../helpers/loadedModules";
import { ROOT, baseEnv, logMessages } from "../helpers/e2e/mainJob";

/**
 * The real command, `npm start`, as a user runs it: in a fresh clone, before and after the build that `npm ci` runs,
 * stopped with SIGTERM sent to npm alone (as a process manager stops it), and with Ctrl-C (SIGINT to the whole
 * process group, as a terminal sends it). Linux only: it reads /proc.
 */
describe("npm start on a fresh clone (runs the build npm ci made; SIGTERM or Ctrl-C to npm stops the service)", function () {
  this.timeout(300_000);

  let clone: string;
  const started: NpmStart[] = [];
  const start = (options: { detached?: boolean; env?: Record<string, string> } = {}) => {
    const job = new NpmStart(clone, join(clone, "data"), options);
    started.push(job);
    return job;
  };

  before(function () {
    if (!existsSync("/proc/self/stat")) this.skip();
    clone = mkdtempSync(join(tmpdir(), "npm-start-clone-"));
    cloneWorkingTree(clone);
  });

  after(function () {
    for (const job of started) job.kill();
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  describe("started with no build (a clone where `npm ci` ran no scripts)", function () {
    it("says in one line to run `npm run build`, and exits 1", async function () {
      expect(existsSync(join(clone, "dist")), "the clone has no build").to.equal(false);
      const job = start();
      const { code } = await job.exit();
      expect(code).to.equal(1);
      expect(job.output).to.match(
        /start: the build is missing \(dist\/main\/start\.js, [^)]*\): run `npm run build` first\n/,
      );
    });
  });

  describe("after the build `npm ci` runs (prepare: npm run build)", function () {
    let job: NpmStart;
    let base: string;
    let probe: string;

    before(function () {
      expect(existsSync(join(clone, "artifacts")), "the clone has no compiled contracts").to.equal(false);
      execFileSync("npm", ["run", "build"], { cwd: clone, env: baseEnv(), stdio: "ignore" });
      probe = join(clone, "loaded-modules.ndjson");
    });

    it("has compiled the contracts, the code and the dapp bundle; the demo serves /api/v1/health", async function () {
      for (const file of [
        "artifacts/contracts/AttestationRegistry.sol/AttestationRegistry.json",
        "dist/main/start.js",
        "dist/cli/main.js",
        "dist/dapp/app.js",
      ]) {
        expect(existsSync(join(clone, file)), file).to.equal(true);
      }
      // The preload records what the service process loads (npm, a node process too, writes its own line).
      job = start({ env: { NODE_OPTIONS: `--require ${LOADED_MODULES_PROBE}`, LOADED_MODULES_FILE: probe } });
      base = await job.ready();
      expect((await fetch(`${base}/api/v1/health`)).status).to.equal(200);
    });

    it("stops when npm alone gets SIGTERM: the port closes and no process is left", async function () {
      if (!base) this.skip();
      const processes = job.processes();
      expect(processes.length, "npm runs the service").to.be.greaterThan(0);
      job.npm.kill("SIGTERM");
      const { code } = await job.exit();
      expect(job.output).to.match(/SIGTERM: shutting down[\s\S]*stopped/);
      expect(code).to.equal(0);
      expect(await refused(base), "the port is closed").to.equal(true);
      await waitFor(
        () => processes.every((pid) => !isRunning(pid)),
        10_000,
        () => job.output,
      );
    });

    it("ran compiled JavaScript with plain node: no TypeScript hook, compiler or bundler loaded", function () {
      if (!base) this.skip();
      const service = readLoadedModules(probe).filter((record) => record.argv[0]?.endsWith("dist/main/start.js"));
      expect(service, "the service process's record").to.have.length(1);
      const { modules } = service[0];
      expect(modules).to.include(join(clone, "dist", "main", "runService.js"));
      expect(modules.filter((path) => BUILD_TIME_ONLY.test(path))).to.deep.equal([]);
      expect(modules.filter((path) => path.startsWith(join(clone, "src")))).to.deep.equal([]);
    });
  });

  // Mocha runs a suite's own tests before its nested suites: this one comes after the fresh start above.
  describe("started again (the build up to date)", function () {
    it("stops cleanly on Ctrl-C (SIGINT to npm's whole process group, as a terminal sends it; npm relays it too)", async function () {
      const job = start({ detached: true });
      const base = await job.ready();
      const processes = job.processes();
      process.kill(-(job.npm.pid as number), "SIGINT");
      const { code } = await job.exit();
      expect(job.output).to.match(/SIGINT: shutting down[\s\S]*stopped/);
      expect(job.output).to.not.match(/again: exiting now/);
      expect(code).to.equal(0);
      expect(await refused(base), "the port is closed").to.equal(true);
      await waitFor(
        () => processes.every((pid) => !isRunning(pid)),
        10_000,
        () => job.output,
      );
    });
  });
});

/** `npm start` in a child process (PORT=0, 16 demo days), its output, and the processes below it. */
class NpmStart {
  readonly npm: ChildProcess;
  /** What npm and the service wrote, as written (npm's banner, then the service's JSON log lines). */
  raw = "";
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private seen: number[] = [];

  constructor(
    cwd: string,
    dataDir: string,
    { detached = false, env = {} }: { detached?: boolean; env?: Record<string, string> },
  ) {
    this.npm = spawn("npm", ["start"], {
      cwd,
      env: { ...baseEnv(), DATA_DIR: dataDir, PORT: "0", DEMO_DAYS: "20", INGEST_INTERVAL_S: "3600", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      // A process group of its own, as a terminal's foreground job has.
      detached,
    });
    this.npm.stdout?.on("data", (chunk: Buffer) => (this.raw += chunk.toString()));
    this.npm.stderr?.on("data", (chunk: Buffer) => (this.raw += chunk.toString()));
    this.exited = new Promise((done) => this.npm.once("exit", (code, signal) => done({ code, signal })));
  }

  /** The output's messages (the JSON log lines' `msg`, npm's own lines as they are). */
  get output(): string {
    return logMessages(this.raw);
  }

  /** Waits for the ready line; returns the served base URL. */
  async ready(): Promise<string> {
    await waitFor(
      () => {
        if (this.npm.exitCode !== null || this.npm.signalCode !== null) throw new Error(`npm exited:\n${this.output}`);
        return /ready: attester/.test(this.output);
      },
      240_000,
      () => this.output,
    );
    return (this.output.match(/serving (http:\/\/\S+)\/api\/v1/) as RegExpMatchArray)[1];
  }

  /** Every process below npm now (remembered, so that `kill` can end any left behind). */
  processes(): number[] {
    this.seen = descendants(this.npm.pid as number);
    return this.seen;
  }

  /** npm's exit; fails after 60 s. */
  async exit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.exited,
      new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`npm did not exit:\n${this.output}`)), 60_000);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Test cleanup: ends npm and whatever it started, if still running. */
  kill(): void {
    const below = this.npm.exitCode === null && this.npm.signalCode === null ? this.processes() : this.seen;
    if (this.npm.exitCode === null && this.npm.signalCode === null) this.npm.kill("SIGKILL");
    for (const pid of below) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  }
}

/** Polls `ready` every 200 ms; fails after `timeoutMs` with `context()` in the message. */
async function waitFor(ready: () => boolean, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out:\n${context()}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** True when nothing answers at `base` any more. */
async function refused(base: string): Promise<boolean> {
  return fetch(`${base}/api/v1/health`).then(
    () => false,
    () => true,
  );
}

/**
 * A clone of the working tree as `git clone` + `npm ci` would leave it: every tracked (or new, not ignored) file,
 * and node_modules linked from this checkout. No dist/, artifacts/, cache/ or typechain-types/ (they are ignored).
 */
function cloneWorkingTree(target: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    const from = join(ROOT, file);
    // A file deleted or moved in the working tree is still listed until the index catches up.
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(from, join(target, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(target, "node_modules"), "dir");
}

/** Every process below `pid` (children, grandchildren, …), from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name in parentheses may hold spaces: the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process exited while we read.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** True while `pid` runs (a zombie, waiting to be reaped, does not run). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
