import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { parseAttestationJson, type Attestation, verifyAttestation } from "@attestation-registry/sdk";
import { BaseError, errorLine } from "@attestation-registry/sdk/errors";
import { InputError, UsageError } from "../../errors/cli";
import { argsUsageError } from "../shared/args";
import { fetchText, readInputText, serviceRoot } from "../shared/input";
import type { CliCommand, CliIo } from "../types";
import { EXIT_EXPIRED, EXIT_INVALID, EXIT_VALID } from "./verify/exitCodes";
import { COMMAND_SUMMARIES } from "../summaries";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UNIX_SECONDS = /^(0|[1-9][0-9]*)$/;
/** The latest time a JavaScript Date can hold (8.64e15 ms), in seconds: year 275760. */
export const MAX_NOW_SECONDS = 8_640_000_000_000;

/** Result line printed by `attest verify`. */
type VerifyLine = {
  valid: boolean;
  attester: string | null;
  expired: boolean;
  canonical: string | null;
  error?: string;
};

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        attester: { type: "string" },
        now: { type: "string" },
        url: { type: "string" },
        pool: { type: "string" },
        batch: { type: "boolean" },
        workers: { type: "string" },
      },
    });
  } catch (error) {
    throw argsUsageError(error);
  }
}

/** Most worker threads `--workers` accepts. */
const MAX_WORKERS = 256;

/**
 * `attest verify --batch [file|-]`: checks the options that only make sense with it (or without it), then streams the
 * lines through worker threads (`./verify/batch.ts`, loaded only here: the single verification never loads it).
 */
async function runBatch(
  values: ReturnType<typeof parseOptions>["values"],
  positionals: string[],
  time: Date,
  io: CliIo,
): Promise<number> {
  if (values.url !== undefined || values.pool !== undefined)
    throw new UsageError("--batch reads attestations from a file or standard input, not from --url/--pool");
  if (positionals.length > 1) throw new UsageError("--batch takes one NDJSON file, or - for standard input");
  if (values.attester === undefined)
    throw new UsageError("--attester <address> is required: pin the attester you expect (never the payload's)");
  let workers = availableParallelism();
  if (values.workers !== undefined) {
    if (!/^[1-9][0-9]{0,2}$/.test(values.workers) || Number(values.workers) > MAX_WORKERS)
      throw new UsageError(
        `--workers must be an integer from 1 to ${MAX_WORKERS}, got ${JSON.stringify(values.workers.slice(0, 40))}`,
      );
    workers = Number(values.workers);
  }
  const { runVerifyBatch } = await import("./verify/batch");
  return runVerifyBatch({ file: positionals[0] ?? "-", address: values.attester, time, workers, io });
}

/**
 * `attest verify <file|-> --attester <address> [--now <unix-seconds>]`
 * `attest verify --url <base_url> --pool <id> [--attester <address>] [--now <unix-seconds>]`
 * `attest verify --batch [file|-] --attester <address> [--now <unix-seconds>] [--workers <n>]`
 *
 * Prints one JSON line `{"valid","attester","expired","canonical"}` (plus `"error"` when the input is unreadable or
 * not a well-formed attestation). Exit 0 authentic and fresh, 1 not authentic or bad input, 2 authentic but
 * expired, 64 usage error. With `--batch`, one line `{"line","valid","expired","attester","error"}` per NDJSON input
 * line, in input order, on all cores; exit 0 only when every line is authentic and fresh, else 1 if any line is not,
 * else 2 (docs/verification.md).
 */
export const verifyCommand: CliCommand = {
  name: "verify",
  summary: COMMAND_SUMMARIES.verify,
  usage:
    "attest verify <file|-> --attester <address> [--now <unix-seconds>]\n" +
    "       attest verify --url <base_url> --pool <id> [--attester <address>] [--now <unix-seconds>]\n" +
    "       attest verify --batch [file|-] --attester <address> [--now <unix-seconds>] [--workers <n>]",
  async run(argv, io) {
    const { values, positionals } = parseOptions(argv);
    if (values.attester !== undefined && !ADDRESS.test(values.attester))
      throw new UsageError(`--attester must be 0x followed by 40 hex digits, got ${JSON.stringify(values.attester)}`);
    if (values.now !== undefined) {
      // Digits only, so at most 14 of them can be in range; the length test keeps Number() exact.
      const inRange = UNIX_SECONDS.test(values.now) && values.now.length <= 14 && Number(values.now) <= MAX_NOW_SECONDS;
      if (!inRange)
        throw new UsageError(
          `--now must be Unix seconds, an integer from 0 to ${MAX_NOW_SECONDS} (the latest time a Date holds), ` +
            `got ${JSON.stringify(values.now.length > 40 ? `${values.now.slice(0, 37)}...` : values.now)}`,
        );
    }
    const time = values.now === undefined ? new Date() : new Date(Number(values.now) * 1000);
    if (values.batch === true) return runBatch(values, positionals, time, io);
    if (values.workers !== undefined) throw new UsageError("--workers needs --batch");

    let expected = values.attester;
    let getText: () => Promise<string>;
    if (values.url !== undefined) {
      if (positionals.length > 0) throw new UsageError("give either a file or --url, not both");
      if (values.pool === undefined || values.pool === "") throw new UsageError("--url needs --pool <id>");
      const root = serviceRoot(values.url);
      const pool = values.pool;
      getText = async () => {
        if (expected === undefined) {
          const attesterUrl = `${root}/api/v1/attester`;
          // An InputError of the request passes as it is; only a body that is not JSON gets the URL in front.
          const text = await fetchText(attesterUrl);
          let body: { attester?: unknown } | null;
          try {
            body = parseAttestationJson({ text }) as { attester?: unknown } | null;
          } catch (error) {
            if (error instanceof BaseError) throw new InputError(`${attesterUrl}: ${errorLine(error)}`);
            throw error;
          }
          const served = body && typeof body === "object" ? body.attester : undefined;
          if (typeof served !== "string" || !ADDRESS.test(served))
            throw new InputError(`${attesterUrl} did not return an "attester" address`);
          expected = served;
          io.stderr(
            `attest verify: expected attester ${served} taken from ${attesterUrl}; ` +
              "pinning it with --attester is stronger (a compromised server can serve both key and claim)",
          );
        }
        return fetchText(`${root}/api/v1/pool/${encodeURIComponent(pool)}`);
      };
    } else {
      if (values.pool !== undefined) throw new UsageError("--pool needs --url <base_url>");
      if (positionals.length !== 1) throw new UsageError("give exactly one attestation file, or - for standard input");
      if (expected === undefined)
        throw new UsageError("--attester <address> is required: pin the attester you expect (never the payload's)");
      const file = positionals[0];
      getText = () => readInputText(file, io);
    }

    let line: VerifyLine;
    try {
      const attestation = parseAttestationJson({ text: await getText() });
      const result = verifyAttestation({ attestation: attestation as Attestation, address: expected!, time });
      line = { valid: result.valid, attester: result.attester, expired: result.expired, canonical: result.canonical };
    } catch (error) {
      // Every project error (InputError included) is a result line; anything else is a bug and propagates.
      if (!(error instanceof BaseError)) throw error;
      line = { valid: false, attester: null, expired: false, canonical: null, error: errorLine(error) };
    }
    io.stdout(JSON.stringify(line));
    if (!line.valid) return EXIT_INVALID;
    return line.expired ? EXIT_EXPIRED : EXIT_VALID;
  },
};
