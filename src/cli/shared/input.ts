import { open } from "node:fs/promises";

import { InputError, UsageError } from "../../errors/cli";
import { errorLine } from "@attestation-registry/sdk/errors";
import type { CliIo } from "../types";
import { readBodyCapped } from "../../net/readBody";

/** Largest attestation input (file, standard input or HTTP body) the commands accept, in bytes: 1 MiB. */
export const MAX_INPUT_BYTES = 1024 * 1024;

const FETCH_TIMEOUT_MS = 10_000;

const tooLarge = (what: string) =>
  new InputError(`${what} is larger than ${MAX_INPUT_BYTES} bytes (1 MiB); an attestation is far smaller`);

/**
 * All of the process's standard input, stopping one byte past `maxBytes` (default `MAX_INPUT_BYTES`): enough for a command to see the
 * input is too large, and an endless pipe cannot exhaust memory.
 */
export async function readProcessStdin(maxBytes: number = MAX_INPUT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > maxBytes) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads the text of `<file>` or standard input (`-`), at most `MAX_INPUT_BYTES` (1 MiB): a larger input is an
 * `InputError`, and no more than one byte past the cap is read. Used by `attest verify`, `digest` and `sign`.
 */
export async function readInputText(file: string, io: CliIo): Promise<string> {
  if (file === "-") {
    const text = await io.readStdin();
    if (text.length > MAX_INPUT_BYTES || Buffer.byteLength(text, "utf8") > MAX_INPUT_BYTES)
      throw tooLarge("standard input");
    return text;
  }
  const buffer = Buffer.alloc(MAX_INPUT_BYTES + 1);
  let length = 0;
  try {
    const handle = await open(file, "r");
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        length += bytesRead;
        if (bytesRead === 0 || length === buffer.length) break;
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = error && typeof error === "object" && "code" in error ? ` (${String(error.code)})` : "";
    throw new InputError(`cannot read ${JSON.stringify(file)}${code}`);
  }
  if (length > MAX_INPUT_BYTES) throw tooLarge(JSON.stringify(file));
  return buffer.toString("utf8", 0, length);
}

/** The response body as text, refusing (and cancelling) one larger than `MAX_INPUT_BYTES`. */
async function readBody(response: Response, url: string): Promise<string> {
  let text: string | null;
  try {
    text = await readBodyCapped(response, MAX_INPUT_BYTES);
  } catch (error) {
    throw new InputError(`GET ${url} failed while reading the body: ${errorLine(error)}`);
  }
  if (text === null) throw tooLarge(`the body of GET ${url}`);
  return text;
}

/**
 * `GET <url>` (10 s timeout) and its body as text, at most `MAX_INPUT_BYTES`. A failed request, an HTTP error status
 * (with the body's `error.code` and `error.message` when it is a JSON error body) or a body over the cap is an
 * `InputError`. Used by `attest verify --url`.
 */
export async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: "application/json" },
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    throw new InputError(`GET ${url} failed${cause || (error instanceof Error ? `: ${error.message}` : "")}`);
  }
  const text = await readBody(response, url);
  if (!response.ok) {
    let detail = "";
    try {
      const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
      const { code, message } = body?.error ?? {};
      const shown = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
      if (shown(code)) detail = `: ${shown(code)}${shown(message) ? ` ${shown(message)}` : ""}`;
    } catch {
      // not JSON: the status says enough
    }
    throw new InputError(`GET ${url} returned HTTP ${response.status}${detail}`);
  }
  return text;
}

/**
 * The root of a service from `--url` (no trailing slash), for the commands that read one (`attest verify --url`,
 * `attest grade`): a `UsageError` when it is not an http or https URL.
 */
export function serviceRoot(url: string): string {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`--url is not a URL: ${JSON.stringify(url)}`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new UsageError(`--url must be http or https, got ${base.protocol}`);
  return base.href.replace(/\/+$/, "");
}
