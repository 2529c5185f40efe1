import { RoadmapSchema } from "../../read/schemas/roadmap";
import { fromZod } from "./fromZod";

/** `GET /api/v1/roadmap` answer: its one declaration, `src/read/schemas/roadmap.ts`, as JSON Schema. */
export const RoadmapResponseSchema = fromZod(RoadmapSchema, { title: "Roadmap" });
