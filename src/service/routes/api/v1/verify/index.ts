import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { BaseError } from "../../../../../errors/base";
import { parseAttestationJson } from "../../../../../lib/parseAttestationJson";
import { verifyAttestation } from "../../../../../lib/verifyAttestation";
import { ApiError, ApiErrorCode } from "../../../../../errors/http";
import { errorResponses } from "../../../../schemas/error";
import { VerifyBodySchema, VerifyResponseSchema } from "../../../../schemas/verify";

/**
 * `POST /api/v1/verify`: recovers the signer of a posted attestation and compares it with the service's own attester.
 * Only `application/json` is accepted (415 otherwise); the raw text is parsed with the library's strict parser, so a
 * repeated member name is a 400; the body schema is checked without type coercion (a string confidence is a 400).
 * It has its own, stricter rate limit (`RATE_LIMIT_VERIFY_MAX`).
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { attesterInfo, config } = fastify;
  const rateLimit =
    config.rateLimit === false ? false : { max: config.rateLimit.verifyMax, timeWindow: config.rateLimit.windowMs };

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    try {
      done(null, parseAttestationJson({ text: text as string }));
    } catch (error) {
      const key = (error as { key?: unknown }).key;
      // The strict parser also rejects a field's value (e.g. an integer written with a fraction or a sign): that is
      // a well-formed JSON body with a bad attestation field, named like the library's other field errors.
      const field = (error as { field?: unknown }).field;
      done(
        new ApiError({
          statusCode: 400,
          code: typeof field === "string" ? ApiErrorCode.invalidAttestation : ApiErrorCode.invalidJson,
          message: error instanceof BaseError ? error.shortMessage : "The body is not valid JSON.",
          extra: typeof field === "string" ? { field } : typeof key === "string" ? { field: key } : {},
        }),
        undefined,
      );
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
        response: { 200: VerifyResponseSchema, ...errorResponses(400, 413, 415, 429) },
      },
      // No coercion on this route: "0.85" is not a number.
      validatorCompiler: (route) =>
        TypeBoxValidatorCompiler(route as unknown as Parameters<typeof TypeBoxValidatorCompiler>[0]),
      config: rateLimit === false ? {} : { rateLimit },
    },
    async function verify(request) {
      try {
        return verifyAttestation({ attestation: request.body, address: attesterInfo.attester });
      } catch (error) {
        if (!(error instanceof BaseError)) throw error;
        const field = (error as { field?: unknown }).field;
        throw new ApiError({
          statusCode: 400,
          code: ApiErrorCode.invalidAttestation,
          message: error.shortMessage,
          extra: typeof field === "string" ? { field } : {},
        });
      }
    },
  );
};

export default plugin;
