/**
 * An HTTP answer's body as text, at most `maxBytes`: a declared `Content-Length` above it is refused before anything is
 * read, and a body that grows past it is cancelled as soon as it does, so no more than `maxBytes` is ever held. The one
 * bounded reader of every HTTP client of the project (feeds, the CLI's `--url`, the remote signer).
 *
 * @returns the text, or null when the body is larger than `maxBytes`.
 * @example
 * const text = await readBodyCapped(await fetch(url), 1024 * 1024);
 * if (text === null) throw new Error("answer above 1 MiB");
 */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
