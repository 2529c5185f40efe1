import { z } from "zod";
import { MarketDataFileError } from "../errors/market";
import gatesFile from "../model/launchGates.v1.json";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { LaunchSchema } from "./schemas/launch";
import { LAUNCH_MEASURES, LaunchMeasureContext } from "./internal/launchMeasures";

/** One launch gate as measured now. */
export type LaunchGate = {
  id: string;
  title: string;
  /** `unmeasured`: the store cannot measure it (the reason is in `detail`); such a gate is not clear. */
  status: "clear" | "not-clear" | "unmeasured";
  measured: number | null;
  threshold: number | null;
  unit: string;
  /** `atLeast`: clear when measured ≥ threshold; `atMost`: clear when measured ≤ threshold. */
  comparison: "atLeast" | "atMost";
  /** The gates this one is checked after (dependency order). */
  after: string[];
  detail: string;
};

export type GetLaunchPositionReturnType = {
  market: { id: string; title: string; protocol: string; kind: "amm" | "lending" };
  /** In dependency order. */
  gates: LaunchGate[];
  /** The first gate (in that order) that is not clear; null when every gate is clear. */
  holding: string | null;
  /** The gates file's version (`src/model/launchGates.v<version>.json`). */
  version: number;
};

const FILE = "src/model/launchGates.v1.json";

const gatesSchema = z
  .object({
    version: z.literal(1),
    market: z
      .object({
        id: z.string().min(1),
        title: z.string().min(1),
        protocol: z.string().min(1),
        kind: z.enum(["amm", "lending"]),
      })
      .strict(),
    gates: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z0-9-]+$/),
            title: z.string().min(1),
            after: z.array(z.string()),
            measure: z.string().refine((name) => name in LAUNCH_MEASURES, "unknown measure"),
            comparison: z.enum(["atLeast", "atMost"]),
            threshold: z.number().finite().nullable(),
            unit: z.string().min(1),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();
type GatesFile = z.infer<typeof gatesSchema>;

let loaded: GatesFile | undefined;

/** The gates file, validated once and put in dependency order (file order among gates that are free). */
function loadGates(): GatesFile {
  if (loaded) return loaded;
  const parsed = gatesSchema.safeParse(gatesFile);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MarketDataFileError({ file: FILE, problem: `${issue.path.join(".")}: ${issue.message}` });
  }
  const gates = parsed.data.gates;
  const ids = new Set(gates.map((gate) => gate.id));
  if (ids.size !== gates.length) throw new MarketDataFileError({ file: FILE, problem: "gate ids repeat" });
  const ordered: GatesFile["gates"] = [];
  while (ordered.length < gates.length) {
    const next = gates.find(
      (gate) => !ordered.includes(gate) && gate.after.every((id) => ordered.some((done) => done.id === id)),
    );
    if (!next) {
      throw new MarketDataFileError({
        file: FILE,
        problem: "a gate depends on an unknown gate, or the order is circular",
      });
    }
    ordered.push(next);
  }
  loaded = { ...parsed.data, gates: ordered };
  return loaded;
}

/**
 * The lending market's launch position: the gates of the versioned gates file (`src/model/launchGates.v1.json`) in
 * dependency order, each measured from the store where it can be (`unmeasured` with the reason where it cannot:
 * a track record while the accuracy record is empty never clears), and `holding`, the first gate that is not clear.
 * Measures count fresh values only. The payload carries no date or time at all: no ETA, no `asOf`.
 *
 * @param context the {@link ReadContext}.
 * @returns {@link GetLaunchPositionReturnType}
 * @throws `MarketDataFileError` when the gates file does not have the documented shape.
 * @example
 * import { getLaunchPosition } from "./read/getLaunchPosition";
 * const { gates, holding } = await getLaunchPosition(context);
 */
export async function getLaunchPosition(context: ReadContext): Promise<GetLaunchPositionReturnType> {
  const file = loadGates();
  const measures = new LaunchMeasureContext(context, file.market, context.now());
  const results = await Promise.all(file.gates.map((gate) => LAUNCH_MEASURES[gate.measure](measures)));
  const gates: LaunchGate[] = file.gates.map((gate, i) => {
    const { measured, detail } = results[i];
    const clear =
      measured !== null &&
      gate.threshold !== null &&
      (gate.comparison === "atLeast" ? measured >= gate.threshold : measured <= gate.threshold);
    return {
      id: gate.id,
      title: gate.title,
      status: measured === null ? "unmeasured" : clear ? "clear" : "not-clear",
      measured,
      threshold: gate.threshold,
      unit: gate.unit,
      comparison: gate.comparison,
      after: gate.after,
      detail,
    };
  });
  return {
    market: file.market,
    gates,
    holding: gates.find((gate) => gate.status !== "clear")?.id ?? null,
    version: file.version,
  };
}

/** The surface, declared once: `GET /api/v1/launch` and the MCP tool `get_launch` are derived from it. */
export const surface = defineSurface({
  title: "Launch position of the lending market",
  label: "Launch position",
  description: [
    "The launch gates of the lending market, in dependency order, each measured from the store now: status clear,",
    "not-clear or unmeasured (the reason is in `detail`; unmeasured is never clear), the measured value against its",
    "threshold (atLeast or atMost, in `unit`), and `holding`: the first gate that is not clear (null when all are).",
    "It says what holds the launch, never when: the payload carries no date. `version` is the gates file's version.",
  ].join(" "),
  parameters: {},
  tags: ["market"],
  output: LaunchSchema,
  outputTitle: "LaunchPosition",
  errors: [429, 500, 503],
  cacheKey: "launch",
  read: (context) => getLaunchPosition(context),
});
