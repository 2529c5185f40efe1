import { LaunchSchema } from "../../read/schemas/launch";
import { fromZod } from "./fromZod";

/** `GET /api/v1/launch` answer: its one declaration, `src/read/schemas/launch.ts`, as JSON Schema. */
export const LaunchResponseSchema = fromZod(LaunchSchema, { title: "LaunchPosition" });
