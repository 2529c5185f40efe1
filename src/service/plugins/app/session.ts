import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import { endSession } from "../../../auth/endSession";
import { issueSiweNonce, type IssueSiweNonceReturnType } from "../../../auth/issueSiweNonce";
import { SIGN_IN_PATH } from "../../../auth/policy";
import { readSession } from "../../../auth/readSession";
import { safeNextPath } from "../../../auth/safeNextPath";
import { signInWithEthereum } from "../../../auth/signInWithEthereum";
import type { Session } from "../../../auth/types";
import type { ServiceConfig } from "../../../config/loadConfig";
import { OriginRefusedError, SessionRequiredError } from "../../../errors/siwe";
import type { Database } from "../../../storage/schema";
import { ASSET_PREFIX } from "../../../web/assets";

export type { Session } from "../../../auth/types";

/** A preHandler hook of the session plugin. */
export type SessionHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Sign-in as the `/auth` routes call it (one place for the cookie and its attributes). */
export type Siwe = {
  /** Issues a nonce (`GET /auth/nonce`). */
  issueNonce(): Promise<IssueSiweNonceReturnType>;
  /** Verifies a signed message, opens a session, ends the browser's previous one and sets the cookie. */
  signIn(request: FastifyRequest, reply: FastifyReply, body: { message: string; signature: string }): Promise<Session>;
  /** Ends the request's session on the server (if any) and clears the cookie. */
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The session cookie's name: `__Host-attest_session` when cookies are `Secure`, else `attest_session`. */
  cookieName(): string;
  /** Whether the cookie is `Secure`: unless the service's origin is plain http on a loopback host. */
  secureCookies(): boolean;
};

/** The paths whose requests carry a session: the dapp (`/app/…`) and sign-in (`/auth/…`). */
const SESSION_PATHS = /^\/(app|auth)(\/|\?|$)/;
declare module "fastify" {
  interface FastifyInstance {
    /**
     * preHandler of the dapp's JSON routes: answers 401 `SESSION_REQUIRED` (JSON error body) when the request has no
     * live session. After it, `request.session` is not null.
     */
    requireSession: SessionHook;
    /**
     * preHandler of the dapp's pages: a request without a live session is answered `303 See Other` to
     * `/app/sign-in?next=<its path>` (a same-site relative path only).
     */
    requirePageSession: SessionHook;
    /**
     * preHandler of every state-changing dapp request: answers 403 `ORIGIN_REFUSED` when the `Origin` header is
     * missing or is not `publicOrigin()`. The project's CSRF rule (docs/sign-in.md#csrf). It also works as a
     * `preParsing` hook (the `/auth` POSTs use it so, to refuse before reading the body; not as `onRequest`, which
     * would run before the rate limit).
     */
    requireSameOrigin: SessionHook;
    /** Sign-in for the `/auth` routes. */
    siwe: Siwe;
  }
  interface FastifyRequest {
    /**
     * The live session of the request's cookie, read on every request (a `preParsing` hook); null when absent,
     * unknown or expired.
     */
    session: Session | null;
  }
}

/** Options of the session plugin. */
export type SessionPluginOptions = {
  db: Kysely<Database>;
  /** Unix seconds. */
  now: () => number;
  signIn: ServiceConfig["signIn"];
};

/**
 * Decorates `request.session`, `fastify.requireSession`, `fastify.requirePageSession`, `fastify.requireSameOrigin`
 * and `fastify.siwe` (see the declarations above). Sessions live in the store, keyed by the SHA-256 of the cookie's
 * 32 random bytes: the cookie is opaque, `HttpOnly; SameSite=Lax; Path=/`, `Secure` (with the `__Host-` prefix)
 * unless the service's own origin is plain http on loopback. Needs the `public-origin` plugin.
 */
export default fp(
  async function sessionPlugin(fastify: FastifyInstance, options: SessionPluginOptions) {
    const { db, now, signIn } = options;
    const context = { db, now };
    if (!fastify.hasRequestDecorator("cookies")) await fastify.register(cookie);

    const secureCookies = (): boolean => !isLoopbackHttp(fastify.publicOrigin());
    const cookieName = (): string => (secureCookies() ? "__Host-attest_session" : "attest_session");
    const cookieOf = (request: FastifyRequest): string | undefined => request.cookies?.[cookieName()];
    const attributes = () => ({ path: "/", httpOnly: true, sameSite: "lax" as const, secure: secureCookies() });

    fastify.decorateRequest("session", null);
    // preParsing: after the rate limit's onRequest hook (a refused request costs no lookup), before any route's own
    // preParsing or preHandler hooks.
    fastify.addHook("preParsing", async function loadSession(request) {
      // Only the dapp's pages and routes and /auth read a session: the API, MCP and the dapp's assets, which a signed-in
      // browser also sends the cookie to, skip the lookup.
      if (!SESSION_PATHS.test(request.url) || request.url.startsWith(ASSET_PREFIX)) return;
      const sessionId = cookieOf(request);
      request.session = sessionId === undefined ? null : await readSession(context, { sessionId });
    });

    fastify.decorate("requireSession", async function requireSession(request: FastifyRequest) {
      if (request.session === null) throw new SessionRequiredError();
    });
    fastify.decorate("requirePageSession", async function requirePageSession(request, reply) {
      if (request.session !== null) return;
      const next = safeNextPath(request.url);
      return reply.redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`, 303);
    });
    fastify.decorate("requireSameOrigin", async function requireSameOrigin(request: FastifyRequest) {
      const expected = fastify.publicOrigin();
      if (request.headers.origin !== expected) throw new OriginRefusedError({ expected });
    });

    fastify.decorate("siwe", {
      issueNonce: () => issueSiweNonce(context),
      async signIn(request, reply, { message, signature }) {
        const { sessionId, session } = await signInWithEthereum(context, {
          message,
          signature,
          origin: fastify.publicOrigin(),
          chainIds: signIn.chainIds,
          sessionTtlS: signIn.sessionTtlS,
          previousSessionId: cookieOf(request),
        });
        reply.setCookie(cookieName(), sessionId, { ...attributes(), maxAge: Math.max(0, session.expiresAt - now()) });
        request.session = session;
        return session;
      },
      async signOut(request, reply) {
        await endSession(context, { sessionId: cookieOf(request) });
        reply.clearCookie(cookieName(), attributes());
        request.session = null;
      },
      cookieName,
      secureCookies,
    } satisfies Siwe);
  },
  { name: "session", dependencies: ["public-origin"] },
);

/** Plain http on a loopback host (127.0.0.0/8, [::1], localhost): the one case where the cookie is not `Secure`. */
export function isLoopbackHttp(origin: string): boolean {
  const url = new URL(origin);
  if (url.protocol !== "http:") return false;
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
