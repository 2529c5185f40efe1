import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { InputError } from "../../../errors/cli";
import { getVerifyBackend } from "@attestation-registry/sdk";
import { drained, processStreams } from "../../shared/processStreams";
import type { CliIo } from "../../types";
import { EXIT_EXPIRED, EXIT_INVALID, EXIT_VALID } from "./exitCodes";
import { lineChunks } from "./lineChunks";
import { BatchProgress, type BatchTally } from "./progress";
import type { ChunkResult } from "./verifyChunk";
import { VerifyPool } from "./verifyPool";

/** Lines per job sent to a worker: about 25 ms of work with libsecp256k1, and small messages. */
export const LINES_PER_CHUNK = 256;
/** Jobs in flight per worker: one running, one queued, so a worker never waits for the main thread. */
const IN_FLIGHT_PER_WORKER = 2;

export type VerifyBatchOptions = {
  /** A file path, or `-` for standard input. */
  file: string;
  /** The expected attester (already checked: 0x + 40 hex digits). */
  address: string;
  time: Date;
  /** Worker threads (at least 1). */
  workers: number;
  io: CliIo;
};

/** The input as a byte stream: the file, the process's standard input, or a recording io's text. */
async function openInput(file: string, io: CliIo): Promise<AsyncIterable<Buffer | string>> {
  if (file !== "-") return createReadStream(file);
  const streams = processStreams(io);
  return streams !== null ? streams.stdin : Readable.from([await io.readStdin()]);
}

/** The chunks of the input, with a read failure turned into the same one-line `InputError` as `attest verify`. */
async function* inputChunks(file: string, io: CliIo): AsyncGenerator<(string | null)[]> {
  try {
    yield* lineChunks(await openInput(file, io), LINES_PER_CHUNK);
  } catch (error) {
    const code = error && typeof error === "object" && "code" in error ? ` (${String(error.code)})` : "";
    const what = file === "-" ? "standard input" : JSON.stringify(file);
    throw new InputError(`cannot read ${what}${code}`);
  }
}

/**
 * `attest verify --batch`: streams NDJSON attestations through a pool of worker threads and prints one result line per
 * input line, in input order. At most `2 × workers` chunks of 256 lines are in flight, and the input is read only as
 * results are written (and, on a real standard output, as it drains), so memory stays bounded for any input size.
 * Returns the exit status (see `exitCodes.ts`); an input with no line, or one that cannot be read to its end, is an
 * `InputError` (exit 1, after the results printed so far). When standard output closes early (`| head`), the run
 * stops, says so in one line on standard error and exits 1: the rest of the input was not verified.
 */
export async function runVerifyBatch({ file, address, time, workers, io }: VerifyBatchOptions): Promise<number> {
  const streams = processStreams(io);
  const { setting } = getVerifyBackend(); // a bad ATTEST_VERIFY_BACKEND fails here, before any worker starts
  const pool = new VerifyPool(workers, { address, nowSeconds: Math.floor(time.getTime() / 1000), backend: setting });
  const progress = streams !== null && streams.stderr.isTTY ? new BatchProgress(streams.stderr, workers) : null;
  const tally: BatchTally = { lines: 0, valid: 0, expired: 0, invalid: 0, backend: setting };
  const inFlight: Promise<ChunkResult>[] = [];
  // EPIPE and the like arrive as 'error' events; unheard, they would crash the process with a stack trace. The
  // listener stays: a closed pipe may report again after the run.
  let outputError: Error | null = null;
  streams?.stdout.on("error", (error: Error) => (outputError ??= error));

  const writeOldest = async () => {
    const result = await inFlight.shift()!;
    io.stdout(result.text);
    tally.lines += result.lines;
    tally.valid += result.valid;
    tally.expired += result.expired;
    tally.invalid += result.invalid;
    tally.backend = result.backend;
    progress?.update(tally);
    if (streams !== null) await drained(streams.stdout).catch((error: Error) => (outputError ??= error));
    if (outputError !== null) throw outputError;
  };

  try {
    let firstLine = 1;
    for await (const lines of inputChunks(file, io)) {
      const result = pool.verify(firstLine, lines);
      // Marked as handled now: a worker can fail while this loop waits for input, before anyone awaits the result.
      result.catch(() => undefined);
      inFlight.push(result);
      firstLine += lines.length;
      if (inFlight.length >= IN_FLIGHT_PER_WORKER * workers) await writeOldest();
    }
    while (inFlight.length > 0) await writeOldest();
  } catch (error) {
    if (error === null || error !== outputError) throw error;
    const { code } = error as { code?: unknown };
    const shown = (typeof code === "string" || typeof code === "number") && code ? ` (${code})` : "";
    io.stderr(`attest verify: standard output closed${shown} after ${tally.lines} results`);
    return EXIT_INVALID;
  } finally {
    await pool.close();
    if (progress !== null && tally.lines > 0) progress.done(tally);
  }
  if (tally.lines === 0) throw new InputError(`${file === "-" ? "standard input" : JSON.stringify(file)} is empty`);
  if (tally.invalid > 0) return EXIT_INVALID;
  return tally.expired > 0 ? EXIT_EXPIRED : EXIT_VALID;
}
