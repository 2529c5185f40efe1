import type { CliIo } from "../types";
import { readProcessStdin } from "./input";

/** The process's standard streams. */
export type ProcessStreams = { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream };

/**
 * The process's own streams when `io` is the process's (`processIo()` in `src/cli/main.ts`, recognized by its
 * `readStdin`, which is `readProcessStdin` itself), else null: a test's recording io has no streams. A command that
 * streams (`attest verify --batch`) reads standard input, waits for standard output to drain and draws progress on a
 * terminal only through these; with a recording io it uses `io.readStdin()` and `io.stdout()` alone.
 */
export function processStreams(io: CliIo): ProcessStreams | null {
  return io.readStdin === readProcessStdin
    ? { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }
    : null;
}

/**
 * Resolves once `stream` can take more (at once when its buffer is under the high-water mark). Rejects when it closes
 * or fails first (e.g. the reader of a pipe went away), so a writer never waits forever.
 */
export function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off("drain", onDrain);
      stream.off("error", onError);
      stream.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => done(new Error("standard output was closed"));
    stream.on("drain", onDrain);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}
