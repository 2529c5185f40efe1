import { extname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { VerifyBackendSetting } from "@attestation-registry/sdk";
import type { ChunkJob, ChunkResult } from "./verifyChunk";

/** What each worker is started with. */
export type VerifyWorkerData = { address: string; nowSeconds: number; backend: VerifyBackendSetting };

/** How a worker is started: the compiled file itself, or (from TypeScript sources) code to evaluate. */
type WorkerSource = { code: string | URL; eval: boolean };

let workerSource: WorkerSource | undefined;

/**
 * The worker's code. Compiled (`dist/`, what `npx attest` runs), it is the compiled verifyWorker.js beside this file,
 * started as it is: nothing is compiled or bundled at run time. Run from the TypeScript sources (the tests, under
 * mocha's `hardhat/register`), a worker cannot start from a .ts file and does not inherit the parent's require hook,
 * so verifyWorker.ts and what it imports are bundled once per process by esbuild (a build-time dependency, loaded only
 * on that path). Its `require` resolves from this folder, so the native addon is found wherever the command runs from.
 */
function workerCode(): WorkerSource {
  if (workerSource === undefined) {
    const entry = join(__dirname, `verifyWorker${extname(__filename)}`);
    if (extname(__filename) === ".js") {
      workerSource = { code: entry, eval: false };
    } else {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when run from the .ts sources
      const { buildSync } = require("esbuild") as typeof import("esbuild");
      const { outputFiles } = buildSync({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node22",
        write: false,
        logLevel: "silent",
      });
      const require_ = `require("node:module").createRequire(${JSON.stringify(entry)})`;
      workerSource = {
        code: `"use strict";\n(function (require) {\n${outputFiles[0].text}\n})(${require_});\n`,
        eval: true,
      };
    }
  }
  return workerSource;
}

type Slot = { worker: Worker; busy: number };
type Waiter = { resolve: (result: ChunkResult) => void; reject: (error: Error) => void };

/**
 * A pool of up to `size` worker threads verifying chunks of lines. Workers start lazily, one more each time every
 * running worker is busy, so a short input starts only one. Each job goes to the least busy worker; results come back
 * through the promise `verify` returns (the caller keeps order and bounds how many are in flight). A worker that fails
 * fails every pending and later job: the batch stops with that error.
 */
export class VerifyPool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 0;
  private failure: Error | null = null;
  private closing = false;

  constructor(
    private readonly size: number,
    private readonly data: VerifyWorkerData,
  ) {}

  /** Verifies `lines` (numbered from `firstLine`) on a worker. */
  verify(firstLine: number, lines: (string | null)[]): Promise<ChunkResult> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const slot = this.pick();
    const job: ChunkJob = { id: this.nextId++, firstLine, lines };
    slot.busy++;
    return new Promise<ChunkResult>((resolve, reject) => {
      this.waiting.set(job.id, {
        resolve: (result) => {
          slot.busy--;
          resolve(result);
        },
        reject,
      });
      slot.worker.postMessage(job);
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private pick(): Slot {
    const idle = this.slots.find((slot) => slot.busy === 0);
    if (idle !== undefined) return idle;
    if (this.slots.length < this.size) return this.spawn();
    return this.slots.reduce((least, slot) => (slot.busy < least.busy ? slot : least));
  }

  private spawn(): Slot {
    const { code, eval: evaluate } = workerCode();
    const worker = new Worker(code, { eval: evaluate, workerData: this.data });
    const slot: Slot = { worker, busy: 0 };
    worker.on("message", (result: ChunkResult) => {
      const waiter = this.waiting.get(result.id);
      this.waiting.delete(result.id);
      waiter?.resolve(result);
    });
    worker.on("error", (error: Error) => this.fail(error));
    worker.on("exit", (code) => {
      if (!this.closing) this.fail(new Error(`a verification worker stopped unexpectedly (exit code ${code})`));
    });
    this.slots.push(slot);
    return slot;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}
