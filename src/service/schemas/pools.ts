import { PoolsSchema } from "../../read/schemas/pools";
import { fromZod } from "./fromZod";

/** `GET /api/v1/pools` answer: its one declaration, `src/read/schemas/pools.ts`, as JSON Schema. */
export const PoolsResponseSchema = fromZod(PoolsSchema);
