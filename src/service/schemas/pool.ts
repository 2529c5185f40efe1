import { AttestationSchema } from "../../read/schemas/attestation";
import { fromZod } from "./fromZod";

/** `GET /api/v1/pool/{pool}` answer: its one declaration, `src/read/schemas/attestation.ts`, as JSON Schema. */
export const AttestationResponseSchema = fromZod(AttestationSchema, { title: "Attestation" });
