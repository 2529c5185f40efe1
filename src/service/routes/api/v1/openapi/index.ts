import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

/** The document sits beside the resources, at `/api/v1/openapi.json`, not under a folder of its own. */
export const prefixOverride = "/api/v1";

/** `GET /api/v1/openapi.json`: the OpenAPI 3 document built from every route's schemas. */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    "/openapi.json",
    {
      schema: {
        summary: "OpenAPI document",
        tags: ["service"],
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async function openapi() {
      return fastify.swagger();
    },
  );
};

export default plugin;
