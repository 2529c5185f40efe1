import { Type } from "@sinclair/typebox";

/** Schema helpers shared by the resources. */

/** A non-negative safe integer. */
export const uint = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
/** An integer given as a JSON number or a canonical decimal string (POST /verify accepts both). */
export const integerInput = (description: string) =>
  Type.Union([uint(description), Type.String({ pattern: "^(0|[1-9][0-9]*)$", description })]);
