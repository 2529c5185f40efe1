import {
  getVerifyBackend,
  type VerifyBackend,
  verifyAttestations,
  type VerifyAttestationsResult,
} from "@attestation-registry/sdk";
import { MAX_LINE_BYTES } from "./lineChunks";

/** One chunk of input lines to verify; `null` is a line over `MAX_LINE_BYTES` that was not read. */
export type ChunkJob = { id: number; firstLine: number; lines: (string | null)[] };

/** The chunk's result lines (NDJSON, without a final newline), their tally, and the backend that recovered them. */
export type ChunkResult = {
  id: number;
  text: string;
  lines: number;
  valid: number;
  expired: number;
  invalid: number;
  backend: VerifyBackend;
};

/** One output line of `attest verify --batch`. */
export type BatchResultLine = {
  /** The input line number, from 1. */
  line: number;
  valid: boolean;
  expired: boolean;
  attester: string | null;
  /** Why the line is not an attestation that could be checked (one line), else null. */
  error: string | null;
};

const OVERSIZED = `line is larger than ${MAX_LINE_BYTES} bytes (1 MiB); an attestation is far smaller`;

function resultLine(line: number, result: VerifyAttestationsResult): string {
  const out: BatchResultLine = {
    line,
    valid: result.valid,
    expired: result.expired,
    attester: result.attester,
    error: result.error,
  };
  return JSON.stringify(out);
}

/**
 * Verifies one chunk of NDJSON lines against the expected attester (what a worker thread does with each job): one
 * result line per input line, in order, each `{line, valid, expired, attester, error}`.
 */
export function verifyChunk(job: ChunkJob, address: string, time: Date): ChunkResult {
  const texts = job.lines.filter((line): line is string => line !== null);
  const results = verifyAttestations({ attestations: texts, address, time });
  const out: string[] = [];
  let next = 0;
  let valid = 0;
  let expired = 0;
  for (const [i, text] of job.lines.entries()) {
    const result: VerifyAttestationsResult =
      text === null
        ? {
            valid: false,
            attester: null,
            expired: false,
            canonical: null,
            error: OVERSIZED,
            errorCode: "LINE_TOO_LONG",
          }
        : results[next++];
    if (result.valid) {
      if (result.expired) expired++;
      else valid++;
    }
    out.push(resultLine(job.firstLine + i, result));
  }
  const lines = job.lines.length;
  const backend = getVerifyBackend().backend;
  return { id: job.id, text: out.join("\n"), lines, valid, expired, invalid: lines - valid - expired, backend };
}
