import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { parseAttestationText } from "../../../../../read/parseAttestationText";
import { verifyAgainstAttester } from "../../../../../read/verifyAgainstAttester";
import { errorResponses } from "../../../../schemas/error";
import { VerifyBodySchema, VerifyResponseSchema } from "../../../../schemas/verify";

/**
 * `POST /api/v1/verify`: recovers the signer of a posted attestation and compares it with the service's own attester.
 * Only `application/json` is accepted (415 otherwise); the raw text is parsed with the library's strict parser, so a
 * repeated member name is a 400; the body schema is checked without type coercion (a string confidence is a 400).
 * It has its own, stricter rate limit (`RATE_LIMIT_VERIFY_MAX`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config } = fastify;
  const rateLimit =
    config.rateLimit === false ? false : { max: config.rateLimit.verifyMax, timeWindow: config.rateLimit.windowMs };

  fastify.removeAllContentTypeParsers();
  // The strict parser: INVALID_JSON (a repeated member is one), or INVALID_ATTESTATION naming a bad signed field.
  fastify.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    try {
      done(null, parseAttestationText({ text: text as string }));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  fastify.post(
    "/",
    {
      schema: {
        summary: "Verify an attestation against this service's attester",
        description:
          "A convenience, not an authority: the same recovery as offline verification. valid and expired are independent.",
        tags: ["attestations"],
        body: VerifyBodySchema,
        response: { 200: VerifyResponseSchema, ...errorResponses(400, 413, 415, 429, 503) },
      },
      // No coercion on this route: "0.85" is not a number.
      validatorCompiler: (route) =>
        TypeBoxValidatorCompiler(route as unknown as Parameters<typeof TypeBoxValidatorCompiler>[0]),
      config: rateLimit === false ? {} : { rateLimit },
    },
    async function verify(request) {
      const { attester } = await fastify.attester();
      return verifyAgainstAttester({ attestation: request.body, attester });
    },
  );
};

export default plugin;
