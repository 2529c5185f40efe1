import { BaseError } from "./base";

/** The SDK's pool identifier error (`src/lib/parsePoolId.ts`); the pool readers' own are in `poolLookup.ts`. */

const DOCS = "docs/service.md#pool-ids";
const SHAPES = "use 0x<address>, <chainId>:0x<address> or eip155:<chainId>:0x<address>";

export type InvalidPoolIdErrorType = InvalidPoolIdError & { name: "InvalidPoolIdError" };
/** A pool identifier in none of the three accepted shapes. */
export class InvalidPoolIdError extends BaseError {
  /** The request field that holds the id. */
  readonly field: string;
  constructor({ id, field = "pool" }: { id: string; field?: string }) {
    super(`"${id.length > 100 ? `${id.slice(0, 100)}…` : id}" is not a pool identifier; ${SHAPES}.`, {
      code: "INVALID_POOL_ID",
      docsPath: DOCS,
      name: "InvalidPoolIdError",
    });
    this.field = field;
  }
}
