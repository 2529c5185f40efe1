import { AttesterSchema } from "../../read/schemas/attester";
import { fromZod } from "./fromZod";

/** `GET /api/v1/attester` answer: its one declaration, `src/read/schemas/attester.ts`, as JSON Schema. */
export const AttesterResponseSchema = fromZod(AttesterSchema);
