import { ModelEvaluationSchema } from "../../read/schemas/modelEvaluation";
import { fromZod } from "./fromZod";

/** `GET /api/v1/model` answer: its one declaration, `src/read/schemas/modelEvaluation.ts`, as JSON Schema. */
export const ModelEvaluationResponseSchema = fromZod(ModelEvaluationSchema, { title: "ModelEvaluation" });
