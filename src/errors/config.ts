import { BaseError, asError } from "@attestation-registry/sdk/errors";

/** Errors of the configuration: the environment (`src/config`) and the pools file it names. */

export type ConfigErrorType = ConfigError & { name: "ConfigError" };

/** The service's environment has an invalid or inconsistent value. The message is one line naming the variable. */
export class ConfigError extends BaseError {
  readonly variable: string;

  constructor({ variable, message }: { variable: string; message: string }) {
    super(`${variable}: ${message}`, {
      code: "CONFIG_INVALID",
      docsPath: "docs/service.md#configuration",
      name: "ConfigError",
    });
    this.variable = variable;
  }
}

export type PoolsFileErrorType = PoolsFileError & { name: "PoolsFileError" };
/** The pools file is missing, not JSON, or not in the documented format. */
export class PoolsFileError extends BaseError {
  readonly path: string;
  readonly issues: string[];
  constructor({ path, issues, cause }: { path: string; issues: string[]; cause?: unknown }) {
    super(`Pools file ${path} is not valid.`, {
      code: "POOLS_FILE_INVALID",
      docsPath: "docs/data.md#pools-file",
      metaMessages: [...issues.slice(0, 10).map((issue) => `Issue: ${issue}`), "See the example in docs/data.md."],
      cause: asError(cause),
      name: "PoolsFileError",
    });
    this.path = path;
    this.issues = issues;
  }
}
