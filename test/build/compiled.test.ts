import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { COMMAND_SUMMARIES } from "../../src/cli/summaries";
import { BUILD_TIME_ONLY, LOADED_MODULES_PROBE, readLoadedModules } from "../helpers/loadedModules";
import vectors from "../vectors/attestation-v1.json";

const ROOT = join(__dirname, "..", "..");
const run = promisify(execFile);

/**
 * What `npx attest` runs is the compiled build in dist/: plain `node`, no TypeScript hook, compiler or
 * bundler at run time. Each test runs bin/attest.js in a child process with a preload that records every module
 * the process loaded (test/helpers/loadedModulesProbe.js). `npm test` builds dist/ first (`npm run build`).
 */
describe("the compiled build (dist/): what `npx attest` loads at run time", function () {
  this.timeout(120_000);
  let dir: string;

  before(function () {
    expect(existsSync(join(ROOT, "dist", "cli", "main.js")), "dist/ is built (npm run build)").to.equal(true);
    dir = mkdtempSync(join(tmpdir(), "attest-compiled-"));
  });

  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `node --require <probe> bin/attest.js …` and returns its output and the modules its main thread loaded. */
  async function probed(argv: string[], name: string) {
    const file = join(dir, `${name}.modules.ndjson`);
    const { stdout, stderr } = await run(
      process.execPath,
      ["--require", LOADED_MODULES_PROBE, "bin/attest.js", ...argv],
      {
        cwd: ROOT,
        env: { ...process.env, LOADED_MODULES_FILE: file },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout: string; stderr: string; code: number }) => {
      throw new Error(`attest ${argv.join(" ")} exited ${error.code}: ${error.stderr}`);
    });
    const records = readLoadedModules(file);
    expect(records, "one process").to.have.length(1);
    return { stdout, stderr, modules: records[0].modules };
  }

  it("attest --help lists every command from the compiled CLI and loads no command module, viem or compiler", async function () {
    const { stdout, modules } = await probed(["--help"], "help");
    for (const [name, summary] of Object.entries(COMMAND_SUMMARIES)) {
      expect(stdout).to.include(`  ${name.padEnd(9)} ${summary}\n`);
    }
    expect(modules).to.include(join(ROOT, "dist", "cli", "main.js"));
    expect(modules.filter((path) => path.startsWith(join(ROOT, "src")))).to.deep.equal([]);
    expect(modules.filter((path) => BUILD_TIME_ONLY.test(path))).to.deep.equal([]);
    expect(modules.filter((path) => /[\\/]node_modules[\\/]viem[\\/]/.test(path))).to.deep.equal([]);
    expect(modules.filter((path) => path.includes(join("dist", "cli", "commands")))).to.deep.equal([]);
  });

  it("attest --help into a closed pipe (| head) ends quietly with exit 0, no stack trace", async function () {
    const { spawn } = await import("node:child_process");
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, ["bin/attest.js", "--help"], { cwd: ROOT });
      proc.stdout.destroy(); // the reader is gone before the first line is written
      let stderr = "";
      proc.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
      proc.on("close", (code) => resolve({ code, stderr }));
    });
    expect(result).to.deep.equal({ code: 0, stderr: "" });
  });

  it("attest verify --batch starts its workers from the compiled worker file, with no bundler or compiler loaded", async function () {
    const line = vectors.cases.find((c) => c.id === "B01-basic")!.attestation_json;
    const input = join(dir, "batch.ndjson");
    // Enough lines for more than one chunk, so the pool starts worker threads.
    writeFileSync(input, Array.from({ length: 5000 }, () => line).join("\n") + "\n");
    const { stdout, modules } = await probed(
      ["verify", "--batch", input, "--attester", vectors.attester.address, "--now", String(vectors.now)],
      "batch",
    );
    const results = stdout
      .trimEnd()
      .split("\n")
      .map((text) => JSON.parse(text) as { line: number; valid: boolean });
    expect(results).to.have.length(5000);
    expect(results.every((result, i) => result.valid && result.line === i + 1)).to.equal(true);
    expect(modules).to.include(join(ROOT, "dist", "cli", "commands", "verify", "verifyPool.js"));
    expect(modules.filter((path) => BUILD_TIME_ONLY.test(path))).to.deep.equal([]);
    expect(modules.filter((path) => path.startsWith(join(ROOT, "src")))).to.deep.equal([]);
  });
});
