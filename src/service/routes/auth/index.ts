import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errorResponses } from "../../schemas/error";
import { NonceResponseSchema, SessionResponseSchema, VerifySignInBodySchema } from "../../schemas/auth";

type ValidatorInput = Parameters<typeof TypeBoxValidatorCompiler>[0];

/**
 * Sign-In with Ethereum (EIP-4361, EOAs only; docs/sign-in.md): `GET /auth/nonce`, `POST /auth/verify`,
 * `GET /auth/session`, `POST /auth/logout`. The POSTs check the `Origin` header against the service's own origin
 * (403 `ORIGIN_REFUSED`) before their body is read, and take only `application/json`; the nonce and verify routes have their own, stricter rate
 * limit per client address (`RATE_LIMIT_SIGN_IN_MAX`), so one client's failures never slow another's sign-in. Every
 * answer is `Cache-Control: no-store`.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config, siwe } = fastify;
  const signInLimit: { rateLimit?: { max: number; timeWindow: number } } =
    config.rateLimit === false
      ? {}
      : { rateLimit: { max: config.signIn.rateLimitMax, timeWindow: config.rateLimit.windowMs } };

  fastify.removeContentTypeParser("text/plain");
  fastify.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  fastify.get(
    "/nonce",
    {
      schema: {
        summary: "A sign-in nonce",
        description: "128 random bits as 32 hex digits, stored server side, single use, valid for 10 minutes.",
        tags: ["sign-in"],
        response: { 200: NonceResponseSchema, ...errorResponses(429) },
      },
      config: signInLimit,
    },
    async function nonce() {
      const { nonce } = await siwe.issueNonce();
      return { nonce };
    },
  );

  fastify.post(
    "/verify",
    {
      schema: {
        summary: "Sign in: verify a signed EIP-4361 message and open a session",
        description:
          "Externally owned accounts only (ecrecover of the exact text; ERC-1271/6492 refused). Sets the HttpOnly, SameSite=Lax session cookie.",
        tags: ["sign-in"],
        body: VerifySignInBodySchema,
        response: { 200: SessionResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
      validatorCompiler: (route) => TypeBoxValidatorCompiler(route as unknown as ValidatorInput),
      // After the rate limit's onRequest hook and before the body is read (see plugins/app/auth.ts).
      preParsing: fastify.requireSameOrigin,
      config: signInLimit,
    },
    async function verify(request, reply) {
      const { address, chainId, expiresAt } = await siwe.signIn(request, reply, request.body);
      return { address, chainId, expiresAt };
    },
  );

  fastify.get(
    "/session",
    {
      schema: {
        summary: "The current session",
        tags: ["sign-in"],
        response: { 200: SessionResponseSchema, ...errorResponses(401, 429) },
      },
      preHandler: fastify.requireSession,
    },
    async function session(request) {
      const { address, chainId, expiresAt } = request.session!;
      return { address, chainId, expiresAt };
    },
  );

  fastify.post(
    "/logout",
    {
      schema: {
        summary: "Sign out: end the session on the server and clear the cookie",
        tags: ["sign-in"],
        response: {
          204: { type: "null", description: "signed out (also when there was no session)" },
          ...errorResponses(403, 429),
        },
      },
      // After the rate limit's onRequest hook and before the body is read (see plugins/app/auth.ts).
      preParsing: fastify.requireSameOrigin,
    },
    async function logout(request, reply) {
      await siwe.signOut(request, reply);
      return reply.code(204).send();
    },
  );
};

export default plugin;
