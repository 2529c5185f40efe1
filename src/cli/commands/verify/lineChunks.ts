/** A line of more than this many bytes is not read into memory: its result is an error. 1 MiB, as for one file. */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Splits a byte stream into lines (`\n`; a `\r` before it is JSON whitespace and stays) and yields them in arrays of
 * `linesPerChunk` (the last one shorter). A last line without a final newline counts; a final newline does not start
 * another line. A line longer than `maxLineBytes` is yielded as `null` and its bytes are dropped as they arrive, so
 * memory stays bounded whatever the input. The consumer pulls: nothing more is read until it asks for the next chunk.
 */
export async function* lineChunks(
  input: AsyncIterable<Buffer | string>,
  linesPerChunk: number,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<(string | null)[]> {
  let lines: (string | null)[] = [];
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let oversized = false;
  for await (const raw of input) {
    const chunk = typeof raw === "string" ? Buffer.from(raw, "utf8") : raw;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (!oversized && partialBytes + piece.length > maxLineBytes) {
        oversized = true;
        partial = [];
        partialBytes = 0;
      }
      if (newline === -1) {
        if (!oversized && piece.length > 0) {
          partial.push(piece);
          partialBytes += piece.length;
        }
        break;
      }
      let line: string | null = null;
      if (!oversized)
        line = partialBytes === 0 ? piece.toString("utf8") : Buffer.concat([...partial, piece]).toString();
      partial = [];
      partialBytes = 0;
      oversized = false;
      lines.push(line);
      if (lines.length === linesPerChunk) {
        yield lines;
        lines = [];
      }
      start = newline + 1;
    }
  }
  if (oversized) lines.push(null);
  else if (partialBytes > 0) lines.push(Buffer.concat(partial).toString("utf8"));
  if (lines.length > 0) yield lines;
}
