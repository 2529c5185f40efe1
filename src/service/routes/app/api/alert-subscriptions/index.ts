import { Type } from "@sinclair/typebox";
import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { createSubscription } from "../../../../../alerts/createSubscription";
import { deleteSubscription } from "../../../../../alerts/deleteSubscription";
import { listSubscriptions } from "../../../../../alerts/listSubscriptions";
import { resumeSubscription } from "../../../../../alerts/resumeSubscription";
import { walletOwner } from "../../../../../alerts/subscriptionOwner";
import {
  AlertSubscriptionBodySchema,
  AlertSubscriptionListSchema,
  AlertSubscriptionParamsSchema,
  AlertSubscriptionSchema,
} from "../../../../schemas/alertSubscriptions";
import { CreatedAlertSubscriptionWithRowSchema, createdSubscriptionRowHtml } from "../../../../createdRows";
import { errorResponses } from "../../../../schemas/error";

type ValidatorInput = Parameters<typeof TypeBoxValidatorCompiler>[0];

/**
 * The signed-in wallet's alert subscriptions (owner `wallet:<lower-case address>`), for the alerts page: the same
 * `src/alerts` functions and schemas as the keyed `/api/v1/alert-subscriptions`, with the session instead of a key.
 * `GET` needs the session (401 without); `POST`, `DELETE` and `POST …/resume` also need an `Origin` equal to the
 * service's own (403: the CSRF rule). Another owner's id is 404, like an unknown one.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext, config } = fastify;
  const changes = {
    preHandler: [fastify.requireSession, fastify.requireSameOrigin],
    validatorCompiler: (route: unknown) => TypeBoxValidatorCompiler(route as ValidatorInput),
  };
  const owner = (request: { session: { address: string } | null }) => walletOwner(request.session!.address);

  fastify.get(
    "/",
    {
      schema: { hide: true, response: { 200: AlertSubscriptionListSchema, ...errorResponses(401, 429, 503) } },
      preHandler: fastify.requireSession,
    },
    async function listWalletSubscriptions(request) {
      return { subscriptions: await listSubscriptions({ db: readContext.db, owner: owner(request) }) };
    },
  );

  fastify.post(
    "/",
    {
      schema: {
        hide: true,
        body: AlertSubscriptionBodySchema,
        response: {
          201: CreatedAlertSubscriptionWithRowSchema,
          ...errorResponses(400, 401, 403, 409, 415, 429, 503),
        },
      },
      ...changes,
    },
    async function createWalletSubscription(request, reply) {
      const created = await createSubscription({
        db: readContext.db,
        owner: owner(request),
        url: request.body.url,
        kinds: request.body.kinds,
        allowPrivateTargets: config.alerts.allowPrivateTargets,
        now: readContext.now,
      });
      reply.header("cache-control", "no-store");
      return reply.code(201).send({ ...created, rowHtml: createdSubscriptionRowHtml(created) });
    },
  );

  fastify.delete(
    "/:id",
    {
      schema: {
        hide: true,
        params: AlertSubscriptionParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      ...changes,
    },
    async function deleteWalletSubscription(request, reply) {
      await deleteSubscription({ db: readContext.db, owner: owner(request), id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    "/:id/resume",
    {
      schema: {
        hide: true,
        params: AlertSubscriptionParamsSchema,
        response: { 200: AlertSubscriptionSchema, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      ...changes,
    },
    async function resumeWalletSubscription(request) {
      return resumeSubscription({ db: readContext.db, owner: owner(request), id: request.params.id });
    },
  );
};

export default plugin;
