import { Type } from "@sinclair/typebox";
import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createSubscription } from "../alerts/createSubscription";
import { deleteSubscription } from "../alerts/deleteSubscription";
import { listSubscriptions } from "../alerts/listSubscriptions";
import { resumeSubscription } from "../alerts/resumeSubscription";
import { sendTestEvent } from "../alerts/sendTestEvent";
import type { CreateSubscriptionReturnType } from "../alerts/createSubscription";
import { CreatedAlertSubscriptionWithRowSchema } from "./createdRows";
import {
  AlertSubscriptionBodySchema,
  AlertSubscriptionListSchema,
  AlertSubscriptionParamsSchema,
  AlertSubscriptionSchema,
  AlertTestEventSchema,
  CreatedAlertSubscriptionSchema,
} from "./schemas/alertSubscriptions";
import { errorResponses } from "./schemas/error";

type ValidatorInput = Parameters<typeof TypeBoxValidatorCompiler>[0];

/** The five alert subscription routes. */
type Operation = "create" | "list" | "delete" | "resume" | "test";

/** A guard hook: `requireApiKey`, `requireSession`, `requireSameOrigin`. */
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
/** A route's guard: a `preParsing` hook (refuses before the body is read) or `preHandler` hooks. */
type Guard = { preParsing?: Hook; preHandler?: Hook | Hook[] };

/** A route's documentation in the OpenAPI document, or `hide` to leave it out. */
type RouteDocs = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  hide?: boolean;
};

/** How one set of alert subscription routes differs from the other: the guard, the owner and the docs. */
export type AlertSubscriptionRoutesOptions = {
  /** The hooks that guard a route that reads (`GET`) and one that changes (the others). */
  guard: { read: Guard; change: Guard };
  /** The owner of the request's subscriptions (`key:<id>` or `wallet:<address>`), after the guard. */
  owner: (request: FastifyRequest) => string;
  /** Each route's documentation (summary, tags, security; or `hide`) and its error statuses. */
  docs: Record<Operation, { schema: RouteDocs; errors: number[] }>;
  /** Headers of the `201` that carries the signing secret (besides Fastify's own). */
  createdHeaders?: Record<string, string>;
  /** The dapp's: the page's table row of the new subscription, answered beside it as `rowHtml`. */
  createdRowHtml?: (created: CreateSubscriptionReturnType) => string | Promise<string>;
};

/**
 * Builds a plugin of the alert subscription routes: `POST /` (subscribe: 201 with the signing secret), `GET /` (the
 * owner's subscriptions with their delivery state), `DELETE /:id`, `POST /:id/resume` and `POST /:id/test` (queue a
 * test event: 202; 409 while the previous one is pending or when the subscription is paused). The rules live in
 * `src/alerts`; another owner's id is 404, like an unknown one. Bodies and parameters are checked without coercion.
 * The keyed `/api/v1/alert-subscriptions` and the wallet's `/app/api/alert-subscriptions` are built here.
 */
export function alertSubscriptionRoutes(
  build: (fastify: Parameters<FastifyPluginAsyncTypebox>[0]) => AlertSubscriptionRoutesOptions,
): FastifyPluginAsyncTypebox {
  return async (fastify) => {
    const { readContext, config } = fastify;
    const { guard, owner, docs, createdHeaders = {}, createdRowHtml } = build(fastify);
    const createdSchema = createdRowHtml ? CreatedAlertSubscriptionWithRowSchema : CreatedAlertSubscriptionSchema;
    const validatorCompiler = (route: unknown) => TypeBoxValidatorCompiler(route as ValidatorInput);
    const read = { ...guard.read, validatorCompiler };
    const change = { ...guard.change, validatorCompiler };

    fastify.post(
      "/",
      {
        schema: {
          ...docs.create.schema,
          body: AlertSubscriptionBodySchema,
          response: { 201: createdSchema, ...errorResponses(...docs.create.errors) },
        },
        ...change,
      },
      async function createAlertSubscription(request, reply) {
        const created = await createSubscription({
          db: readContext.db,
          owner: owner(request),
          url: request.body.url,
          kinds: request.body.kinds,
          pool: request.body.pool,
          allowPrivateTargets: config.alerts.allowPrivateTargets,
          now: readContext.now,
        });
        const body = createdRowHtml ? { ...created, rowHtml: await createdRowHtml(created) } : created;
        return reply.headers(createdHeaders).code(201).send(body);
      },
    );

    fastify.get(
      "/",
      {
        schema: {
          ...docs.list.schema,
          response: { 200: AlertSubscriptionListSchema, ...errorResponses(...docs.list.errors) },
        },
        ...read,
      },
      async function listAlertSubscriptions(request) {
        return { subscriptions: await listSubscriptions({ db: readContext.db, owner: owner(request) }) };
      },
    );

    fastify.delete(
      "/:id",
      {
        schema: {
          ...docs.delete.schema,
          params: AlertSubscriptionParamsSchema,
          response: { 204: Type.Null({ description: "deleted" }), ...errorResponses(...docs.delete.errors) },
        },
        ...change,
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
          ...docs.resume.schema,
          params: AlertSubscriptionParamsSchema,
          response: { 200: AlertSubscriptionSchema, ...errorResponses(...docs.resume.errors) },
        },
        ...change,
      },
      async function resumeAlertSubscription(request) {
        return resumeSubscription({ db: readContext.db, owner: owner(request), id: request.params.id });
      },
    );

    fastify.post(
      "/:id/test",
      {
        schema: {
          ...docs.test.schema,
          params: AlertSubscriptionParamsSchema,
          response: { 202: AlertTestEventSchema, ...errorResponses(...docs.test.errors) },
        },
        ...change,
      },
      async function testAlertSubscription(request, reply) {
        const queued = await sendTestEvent({
          db: readContext.db,
          owner: owner(request),
          id: request.params.id,
          now: readContext.now,
        });
        return reply.code(202).send(queued);
      },
    );
  };
}
