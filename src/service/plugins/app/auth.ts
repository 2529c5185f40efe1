import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import { UnauthorizedError } from "../../../errors/auth";
import type { Database } from "../../../storage/schema";
import { authenticateApiKey, type AuthenticateApiKeyReturnType } from "../../../write/authenticateApiKey";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The hook of keyed routes: authenticates `Authorization: Bearer <key>` and sets `request.apiKey`, or answers 401
     * `UNAUTHORIZED` with `WWW-Authenticate: Bearer`. Use it as `preParsing: fastify.requireApiKey`: not `onRequest`,
     * because @fastify/rate-limit appends its hook after a route's own `onRequest` hooks, and a 401 thrown there
     * would skip the limit (unlimited key guessing). `preParsing` runs after the limit and before the body is read.
     */
    requireApiKey: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The authenticated API key on keyed routes (null elsewhere). */
    apiKey: AuthenticateApiKeyReturnType | null;
  }
}

/** `Bearer <token>`: the scheme in any case, one space or more, then the token (RFC 6750 §2.1). */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Decorates `fastify.requireApiKey` and `request.apiKey`. The key is looked up by its SHA-256 in the store on every
 * request (so a key revoked in the dapp stops working at once) and is never logged. Runs as a `preParsing` hook:
 * after the rate limit, before the body is read, so a request without a valid key costs no parsing.
 */
export default fp(
  async function authPlugin(fastify: FastifyInstance, { db }: { db: Kysely<Database> }) {
    fastify.decorateRequest("apiKey", null);
    fastify.decorate("requireApiKey", async function requireApiKey(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers.authorization;
      try {
        if (header === undefined || header === "") throw new UnauthorizedError({ problem: "missing" });
        const match = BEARER.exec(header);
        if (match === null) throw new UnauthorizedError({ problem: "malformed" });
        request.apiKey = await authenticateApiKey({ db }, { key: match[1] });
      } catch (error) {
        if (error instanceof UnauthorizedError) {
          // RFC 6750 §3: a request without credentials gets the bare challenge; a bad key gets invalid_token.
          const challenge = error.problem === "missing" ? "Bearer" : 'Bearer error="invalid_token"';
          reply.header("www-authenticate", challenge);
        }
        throw error;
      }
    });
  },
  { name: "auth" },
);
