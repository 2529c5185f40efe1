import { parseArgs } from "node:util";
import { CLAIM_FLOOR } from "../../attest/issueAttestations";
import { InputError, UsageError } from "../../errors/cli";
import { type Attestation, verifyAttestation } from "@attestation-registry/sdk";
import { gradeClaim, type ClaimOutcome } from "../../model/gradeClaim";
import { argsUsageError } from "../shared/args";
import { fetchText, serviceRoot } from "../shared/input";
import { COMMAND_SUMMARIES } from "../summaries";
import type { CliCommand, CliIo } from "../types";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The longest history the service serves (`GET /api/v1/pool/{pool}/history?days=`). */
const HISTORY_DAYS = 730;
/** Pages of one pool's claims followed at most (100 a page). */
const MAX_PAGES = 1000;

type ServedClaim = {
  issuedAt: number;
  horizon: number;
  confidence: number;
  floorUsd: number;
  outcome: ClaimOutcome;
  lowestDepthUsd: number | null;
  lowestDepthDate: string | null;
  attestation: Record<string, unknown>;
};
type HistoryDay = { date: string; lowestDepthUsd: number | null; source: string; depthUsd?: number | null };

/** GET `url` as JSON, naming the URL when the body is not JSON. */
async function getJson<T>(url: string): Promise<T> {
  const text = await fetchText(url);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new InputError(`GET ${url} did not return JSON`);
  }
}

/** What is wrong with one served claim (empty when it agrees), checked against the public history. */
export function checkClaim(
  claim: ServedClaim,
  history: readonly HistoryDay[],
  expected: string,
): { problems: string[]; recomputed: ClaimOutcome | null } {
  const problems: string[] = [];
  const signed = claim.attestation;
  const result = verifyAttestation({
    attestation: signed as unknown as Attestation,
    address: expected,
    time: new Date(claim.issuedAt * 1000),
  });
  if (!result.valid) problems.push(`signature not valid for attester ${expected}`);
  for (const field of ["issuedAt", "horizon", "confidence"] as const) {
    if (signed[field] !== claim[field])
      problems.push(`${field} ${claim[field]} is not the signed ${String(signed[field])}`);
  }
  if (history.length === 0) return { problems, recomputed: null };
  const first = history[0].date;
  const lastFinalDay = history[history.length - 1].date;
  const issuedDay = new Date(claim.issuedAt * 1000).toISOString().slice(0, 10);
  const byDate = new Map(history.map((day) => [day.date, day]));
  const stated = byDate.get(issuedDay)?.depthUsd;
  if (typeof stated === "number") {
    const floor = CLAIM_FLOOR * stated;
    if (Math.abs(floor - claim.floorUsd) > 1e-9 * Math.max(1, Math.abs(floor)))
      problems.push(`floorUsd ${claim.floorUsd} is not ${CLAIM_FLOOR} × the stated depth ${stated} of ${issuedDay}`);
  }
  // A window that starts before the history served cannot be recomputed from it.
  if (issuedDay < first) return { problems, recomputed: null };
  const low = (day: string) => {
    const entry = byDate.get(day);
    return entry && entry.source === "observed" && entry.lowestDepthUsd !== null ? entry.lowestDepthUsd : null;
  };
  const grade = gradeClaim({ issuedDay, horizon: claim.horizon, floorUsd: claim.floorUsd }, low, lastFinalDay);
  // The service grades in its next pass: a claim it still calls pending may have settled since its last pass.
  const agrees =
    claim.outcome === "pending"
      ? true
      : grade.outcome === claim.outcome &&
        grade.lowestDepthUsd === claim.lowestDepthUsd &&
        grade.lowestDepthDate === claim.lowestDepthDate;
  if (!agrees)
    problems.push(
      `served ${claim.outcome} (${claim.lowestDepthUsd} on ${claim.lowestDepthDate}) but the history gives ` +
        `${grade.outcome} (${grade.lowestDepthUsd} on ${grade.lowestDepthDate})`,
    );
  return { problems, recomputed: grade.outcome };
}

/**
 * `attest grade --url <base_url> [--attester <address>] [--pool <id>]`: recomputes the accuracy record from the
 * service's public history, trusting nothing it says: every claim's signature is checked against the expected
 * attester, its terms against what is signed, its floor against the history's stated depth, and its outcome is
 * recomputed with the one grading rule (docs/model.md#grading). Prints one line per disagreement, then a JSON
 * summary; exit 0 when all agree, 1 otherwise, 64 on a usage error.
 */
export const gradeCommand: CliCommand = {
  name: "grade",
  summary: COMMAND_SUMMARIES.grade,
  usage: "attest grade --url <base_url> [--attester <address>] [--pool <id>]",
  async run(argv: string[], io: CliIo) {
    let values: { url?: string; attester?: string; pool?: string };
    try {
      ({ values } = parseArgs({
        args: argv,
        strict: true,
        options: { url: { type: "string" }, attester: { type: "string" }, pool: { type: "string" } },
      }));
    } catch (error) {
      throw argsUsageError(error);
    }
    if (values.url === undefined) throw new UsageError("--url <base_url> is required (the service to check)");
    const root = serviceRoot(values.url);
    if (values.attester !== undefined && !ADDRESS.test(values.attester))
      throw new UsageError(`--attester must be 0x followed by 40 hex digits, got ${JSON.stringify(values.attester)}`);

    let expected = values.attester;
    if (expected === undefined) {
      const served = (await getJson<{ attester?: unknown }>(`${root}/api/v1/attester`)).attester;
      if (typeof served !== "string" || !ADDRESS.test(served))
        throw new InputError(`${root}/api/v1/attester did not return an "attester" address`);
      expected = served;
      io.stderr(`attest grade: expected attester ${served} taken from the service; pin it with --attester`);
    }
    const pools =
      values.pool !== undefined
        ? [values.pool]
        : (await getJson<{ pools: { id: string }[] }>(`${root}/api/v1/pools`)).pools.map((pool) => pool.id);

    const counts = { claims: 0, pending: 0, held: 0, failed: 0, void: 0, outsideHistory: 0, disagreements: 0 };
    for (const pool of pools) {
      const id = encodeURIComponent(pool);
      const history = (await getJson<{ days: HistoryDay[] }>(`${root}/api/v1/pool/${id}/history?days=${HISTORY_DAYS}`))
        .days;
      let cursor: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
        const body: { claims: ServedClaim[]; next: string | null } = await getJson(
          `${root}/api/v1/pool/${id}/claims${query}`,
        );
        for (const claim of body.claims) {
          counts.claims += 1;
          const { problems, recomputed } = checkClaim(claim, history, expected);
          if (claim.outcome in counts) counts[claim.outcome as "pending"] += 1;
          if (recomputed === null) counts.outsideHistory += 1;
          if (problems.length > 0) {
            counts.disagreements += 1;
            const issued = new Date(claim.issuedAt * 1000).toISOString();
            io.stdout(JSON.stringify({ pool, issuedAt: claim.issuedAt, issued, problems }));
          }
        }
        cursor = body.next;
        if (cursor === null) break;
      }
    }
    io.stdout(JSON.stringify({ attester: expected, pools: pools.length, ...counts }));
    return counts.disagreements === 0 ? 0 : 1;
  },
};
