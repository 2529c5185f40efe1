import { open } from "node:fs/promises";
import { InputError, UsageError } from "../../errors/cli";
import { evaluateModelWithClaims, publishedClaim } from "../../model/evaluateModel";
import { EvaluationInputError, parseEvaluationInput } from "../../model/evaluationInput";
import { HORIZON_MODELS, ISSUING_MODEL, type HorizonModelVersion } from "../../model/horizon";
import { ISSUER_RULE } from "../../attest/refreshModelEvaluation";
import { parseCommandArgs } from "../shared/args";
import type { CliCommand, CliIo } from "../types";
import { EXIT_USAGE } from "../types";
import { COMMAND_SUMMARIES } from "../summaries";

/** Largest input `attest model evaluate` reads: 256 MiB (300 pools × 450 days of lows is about 10 MiB). */
export const MAX_EVALUATION_INPUT_BYTES = 256 * 1024 * 1024;

const USAGE = "attest model evaluate [--input FILE|-] [--model ID] [--claims]";

/** The version `--model` names: its full id (`daily-min-margin/v3`) or its last part (`v3`). */
function findModel(id: string | undefined): HorizonModelVersion {
  if (id === undefined) return ISSUING_MODEL;
  const model = HORIZON_MODELS.find((m) => m.id === id || m.id.split("/").at(-1) === id);
  if (model === undefined) {
    throw new UsageError(
      `--model: unknown model ${JSON.stringify(id)}; one of ${HORIZON_MODELS.map((m) => m.id).join(", ")}`,
    );
  }
  return model;
}

/** The whole of `file` (`-`: standard input), at most {@link MAX_EVALUATION_INPUT_BYTES}. */
async function readInput(file: string, io: CliIo): Promise<string> {
  const tooLarge = (what: string) =>
    new InputError(`${what} is larger than ${MAX_EVALUATION_INPUT_BYTES / 1024 / 1024} MiB; split the pools over runs`);
  if (file === "-") {
    const text = await io.readStdin(MAX_EVALUATION_INPUT_BYTES);
    if (text.length > MAX_EVALUATION_INPUT_BYTES || Buffer.byteLength(text, "utf8") > MAX_EVALUATION_INPUT_BYTES) {
      throw tooLarge("standard input");
    }
    return text;
  }
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = error && typeof error === "object" && "code" in error ? ` (${String(error.code)})` : "";
    throw new InputError(`cannot read ${JSON.stringify(file)}${code}`);
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_EVALUATION_INPUT_BYTES) throw tooLarge(JSON.stringify(file));
    return await handle.readFile({ encoding: "utf8" });
  } finally {
    await handle.close();
  }
}

/**
 * `attest model evaluate [--input FILE|-] [--model ID] [--claims]`
 *
 * The walk-forward evaluation of a horizon model version (default the issuing one) on any daily lows, with no store
 * and no network: the same functions that compute `GET /api/v1/model`'s `evaluation`, with the issuer's rule. Input:
 * NDJSON daily lows, with optional stated depths (`depthUsd`: the day's claim is anchored on it) and campaign ends (a
 * horizon cap), applied as the service's evaluation applies them (see `parseEvaluationInput`); the last complete day is
 * the latest date in it. Output: the
 * evaluation as one JSON line; with `--claims`, then every scored claim as one NDJSON line each (pool, asOf, horizon,
 * confidence, floorUsd, outcome), from which the Brier score recomputes exactly. A bad input line exits 64 with one
 * line on standard error naming the line and what to fix.
 */
export const modelCommand: CliCommand = {
  name: "model",
  summary: COMMAND_SUMMARIES.model,
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs({
      argv,
      allowPositionals: true,
      options: { input: { type: "string" }, model: { type: "string" }, claims: { type: "boolean" } },
    });
    if (positionals.length !== 1 || positionals[0] !== "evaluate") {
      throw new UsageError(
        positionals.length === 0
          ? "give the subcommand: evaluate"
          : `unknown subcommand ${JSON.stringify(positionals.join(" "))}; the one subcommand is evaluate`,
      );
    }
    const model = findModel(values.model);
    const where = values.input ?? "-";
    const text = await readInput(where, io);
    let input;
    try {
      input = parseEvaluationInput(text);
    } catch (error) {
      if (!(error instanceof EvaluationInputError)) throw error;
      io.stderr(`attest model: ${where === "-" ? "standard input" : where}: ${error.message}`);
      return EXIT_USAGE;
    }
    if (input.lastDay === null) {
      io.stderr(
        `attest model: ${where === "-" ? "standard input" : where} holds no daily low; give lines {"pool","date","lowUsd"}`,
      );
      return EXIT_USAGE;
    }
    const { evaluation, scored } = evaluateModelWithClaims(input.pools, { ...ISSUER_RULE, model }, input.lastDay);
    io.stdout(JSON.stringify(evaluation));
    if (values.claims) for (const claim of scored) io.stdout(JSON.stringify(publishedClaim(claim)));
    return 0;
  },
};
