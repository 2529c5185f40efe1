import { Type } from "@sinclair/typebox";
import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { createSubscription } from "../../../../../alerts/createSubscription";
import { deleteSubscription } from "../../../../../alerts/deleteSubscription";
import { listSubscriptions } from "../../../../../alerts/listSubscriptions";
import { resumeSubscription } from "../../../../../alerts/resumeSubscription";
import { keyOwner } from "../../../../../alerts/subscriptionOwner";
import {
  AlertSubscriptionBodySchema,
  AlertSubscriptionListSchema,
  AlertSubscriptionParamsSchema,
  AlertSubscriptionSchema,
  CreatedAlertSubscriptionSchema,
} from "../../../../schemas/alertSubscriptions";
import { errorResponses } from "../../../../schemas/error";

type ValidatorInput = Parameters<typeof TypeBoxValidatorCompiler>[0];

/**
 * The keyed alert routes (DESIGN §9), each behind `Authorization: Bearer <key>` (401 `UNAUTHORIZED` first, after the
 * rate limit: see plugins/app/auth.ts). The key is the owner (`key:<key id>`): it lists, deletes and resumes only its
 * own subscriptions, and another owner's id is 404 like an unknown one. Bodies and parameters are checked without
 * coercion. The routes are thin: the rules live in `src/alerts`, which the dapp calls with a wallet as the owner.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, config } = fastify;
  const keyed = {
    preParsing: fastify.requireApiKey,
    validatorCompiler: (route: unknown) => TypeBoxValidatorCompiler(route as ValidatorInput),
  };
  const owner = (request: { apiKey: { id: string } | null }) => keyOwner(request.apiKey!.id);

  fastify.post(
    "/",
    {
      schema: {
        summary: "Subscribe a webhook to activity events (keyed)",
        description:
          "Needs Authorization: Bearer <API key>. The target must be https on a public address (checked after DNS resolution, again before every attempt). Deliveries follow Standard Webhooks; the answer carries the signing secret, shown this once.",
        tags: ["alerts"],
        security: [{ bearerAuth: [] }],
        body: AlertSubscriptionBodySchema,
        response: { 201: CreatedAlertSubscriptionSchema, ...errorResponses(400, 401, 409, 413, 415, 429, 503) },
      },
      ...keyed,
    },
    async function createAlertSubscription(request, reply) {
      const created = await createSubscription({
        db: readContext.db,
        owner: owner(request),
        url: request.body.url,
        kinds: request.body.kinds,
        allowPrivateTargets: config.alerts.allowPrivateTargets,
        now: readContext.now,
      });
      return reply.code(201).send(created);
    },
  );

  fastify.get(
    "/",
    {
      schema: {
        summary: "The key's own alert subscriptions and their delivery state (keyed)",
        description:
          "Pending, delivered and failed deliveries per subscription, the last error, and whether it is paused.",
        tags: ["alerts"],
        security: [{ bearerAuth: [] }],
        response: { 200: AlertSubscriptionListSchema, ...errorResponses(401, 429, 503) },
      },
      ...keyed,
    },
    async function listAlertSubscriptions(request) {
      return { subscriptions: await listSubscriptions({ db: readContext.db, owner: owner(request) }) };
    },
  );

  fastify.delete(
    "/:id",
    {
      schema: {
        summary: "Delete one of the key's alert subscriptions (keyed)",
        description: "Its queued deliveries are dropped. Another owner's id is 404, like an unknown one.",
        tags: ["alerts"],
        security: [{ bearerAuth: [] }],
        params: AlertSubscriptionParamsSchema,
        response: { 204: Type.Null({ description: "deleted" }), ...errorResponses(400, 401, 404, 429, 503) },
      },
      ...keyed,
    },
    async function deleteAlertSubscription(request, reply) {
      await deleteSubscription({ db: readContext.db, owner: owner(request), id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    "/:id/resume",
    {
      schema: {
        summary: "Resume a paused alert subscription (keyed)",
        description:
          "Its pending deliveries go out again from the oldest event; the delivery that failed stays failed. Events written while it was paused were not queued for it.",
        tags: ["alerts"],
        security: [{ bearerAuth: [] }],
        params: AlertSubscriptionParamsSchema,
        response: { 200: AlertSubscriptionSchema, ...errorResponses(400, 401, 404, 429, 503) },
      },
      ...keyed,
    },
    async function resumeAlertSubscription(request) {
      return resumeSubscription({ db: readContext.db, owner: owner(request), id: request.params.id });
    },
  );
};

export default plugin;
