import { z } from "zod";
import { MarketDataFileError } from "../errors/market";
import roadmapFile from "../model/roadmap.v1.json";
import type { ReadContext } from "./context";
import { defineSurface } from "./defineSurface";
import { RoadmapSchema } from "./schemas/roadmap";
import { STORE_COUNTERS, countStore, type StoreCounter } from "./internal/storeCounters";

/** One roadmap item; `counts` holds the store counts the data file names for it, computed at request time. */
export type RoadmapItem = {
  id: string;
  title: string;
  status: "shipped" | "building" | "planned";
  /** By counter name; null when the store cannot tell (not zero). */
  counts: Partial<Record<StoreCounter, number | null>>;
};

export type GetRoadmapReturnType = {
  /** The data file's version (`src/model/roadmap.v<version>.json`). */
  version: number;
  items: RoadmapItem[];
};

const FILE = "src/model/roadmap.v1.json";

const roadmapSchema = z
  .object({
    version: z.literal(1),
    items: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z0-9-]+$/),
            title: z.string().min(1),
            status: z.enum(["shipped", "building", "planned"]),
            counts: z.array(z.enum(Object.keys(STORE_COUNTERS) as [StoreCounter, ...StoreCounter[]])),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

let roadmap: z.infer<typeof roadmapSchema> | undefined;

/** The data file, validated once (a bad file is a {@link MarketDataFileError}, never a half-read roadmap). */
function loadRoadmap(): z.infer<typeof roadmapSchema> {
  if (roadmap) return roadmap;
  const parsed = roadmapSchema.safeParse(roadmapFile);
  if (!parsed.success) throw new MarketDataFileError({ file: FILE, problem: parsed.error.issues[0].message });
  const ids = parsed.data.items.map((item) => item.id);
  if (new Set(ids).size !== ids.length) throw new MarketDataFileError({ file: FILE, problem: "item ids repeat" });
  roadmap = parsed.data;
  return roadmap;
}

/**
 * The roadmap: the items of the versioned data file (`src/model/roadmap.v1.json`) in its order, each with the store
 * counts it names (pools tracked and attested, attesters bonded, claims pending and graded, liquidity requests
 * received, events logged, …) computed now from the store. The file holds no count.
 *
 * @param context the {@link ReadContext} (only `db` is read).
 * @returns {@link GetRoadmapReturnType}
 * @throws `MarketDataFileError` when the data file does not have the documented shape.
 * @example
 * import { getRoadmap } from "./read/getRoadmap";
 * const { items } = await getRoadmap(context);
 */
export async function getRoadmap({ db }: Pick<ReadContext, "db">): Promise<GetRoadmapReturnType> {
  const file = loadRoadmap();
  const values = await countStore(
    db,
    file.items.flatMap((item) => item.counts),
  );
  return {
    version: file.version,
    items: file.items.map((item) => ({
      id: item.id,
      title: item.title,
      status: item.status,
      counts: Object.fromEntries(item.counts.map((name) => [name, values[name]])),
    })),
  };
}

/** The surface, declared once: `GET /api/v1/roadmap` and the MCP tool `get_roadmap` are derived from it. */
export const surface = defineSurface({
  title: "Roadmap",
  label: "Roadmap",
  description: [
    "The roadmap's items with their status (shipped, building or planned) and counts computed from the store at",
    "request time (for example pools tracked, attestations issued); a count is null when the store cannot tell,",
    "never a made-up zero. `version` is the roadmap file's version.",
  ].join(" "),
  parameters: {},
  tags: ["market"],
  output: RoadmapSchema,
  outputTitle: "Roadmap",
  errors: [429, 500, 503],
  cacheKey: "roadmap",
  read: (context) => getRoadmap(context),
});
