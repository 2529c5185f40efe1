import { HealthSchema } from "../../read/schemas/health";
import { fromZod } from "./fromZod";

/** `GET /api/v1/health` answer: its one declaration, `src/read/schemas/health.ts`, as JSON Schema. */
export const HealthResponseSchema = fromZod(HealthSchema);
