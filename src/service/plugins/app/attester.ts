import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ApiError, ApiErrorCode } from "../../../errors/http";
import { getAttesterInfo, type AttesterInfo } from "../../../read/getAttesterInfo";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The service's attester (the body of `GET /api/v1/attester`; the expected signer of `POST /verify` and MCP).
     * Throws a 503 `ATTESTER_UNKNOWN` while an api process does not know it yet.
     */
    attester(): Promise<AttesterInfo>;
    /** Whether the attester is known now (looked up again while it is not): `/readyz` reads it. */
    attesterKnown(): Promise<boolean>;
  }
}

/** The service's own signer: the authoritative expected address of every attestation it serves. */
export type { AttesterInfo };

export type AttesterOptions = {
  /** The attester's address, or null when it is not known at start (an api process before any worker issued). */
  address: string | null;
  registry: { chainId: number; address: string } | null;
  /**
   * Where an unknown attester is looked up, at most once a second, until found: an api process reads the signer of
   * the newest attestation in the store. Default: never found.
   */
  lookup?: () => Promise<string | null>;
};

/** How often an unknown attester is looked up again, at most. */
const LOOKUP_INTERVAL_MS = 1000;

/** `Retry-After` of a 503 `ATTESTER_UNKNOWN`, in seconds: about one worker pass. */
export const ATTESTER_RETRY_AFTER_S = 5;

/**
 * Decorates `fastify.attester()` and `fastify.attesterKnown()`. An address given at start is final. Without one, the
 * attester is looked up (`lookup`) on demand, at most once a second, and kept once found: an api process started
 * before any worker issued becomes ready by itself, never exits for a state that time resolves.
 */
export default fp(
  async function attesterPlugin(fastify: FastifyInstance, { address, registry, lookup }: AttesterOptions) {
    let known: AttesterInfo | null = address === null ? null : getAttesterInfo({ address, registry });
    let lastLookup = 0;
    let pending: Promise<AttesterInfo | null> | null = null;
    const find = async (): Promise<AttesterInfo | null> => {
      if (known !== null || lookup === undefined) return known;
      if (pending !== null) return pending;
      if (Date.now() - lastLookup < LOOKUP_INTERVAL_MS) return null;
      lastLookup = Date.now();
      pending = lookup()
        .then((found) => (known = found === null ? null : getAttesterInfo({ address: found, registry })))
        .finally(() => (pending = null));
      return pending;
    };
    fastify.decorate("attester", async () => {
      const info = await find();
      if (info !== null) return info;
      throw new ApiError({
        statusCode: 503,
        code: ApiErrorCode.attesterUnknown,
        message:
          "The attester is not known yet: no worker has issued an attestation and ATTESTER_ADDRESS is not set; retry later.",
      });
    });
    fastify.decorate("attesterKnown", async () => (await find()) !== null);
  },
  { name: "attester" },
);
