import { BaseError } from "@attestation-registry/sdk/errors";

/** Errors of the horizon model (`src/model/horizon.ts`). */

const DOCS = "docs/data.md";

export type HorizonInputErrorType = HorizonInputError & { name: "HorizonInputError" };
/** A parameter of the horizon model is out of range (e.g. a floor outside (0, 1]). */
export class HorizonInputError extends BaseError {
  readonly field: string;
  constructor({ field, value, expected }: { field: string; value: unknown; expected: string }) {
    super(`Horizon model parameter "${field}" is invalid.`, {
      code: "HORIZON_INPUT_INVALID",
      docsPath: `${DOCS}#horizon-model`,
      metaMessages: [`Received: ${JSON.stringify(value) ?? String(value)}`, `Expected: ${expected}`],
      name: "HorizonInputError",
    });
    this.field = field;
  }
}
