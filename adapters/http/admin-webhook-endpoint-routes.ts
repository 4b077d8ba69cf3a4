import { Elysia, t } from "elysia";
import type {
  KeyedWebhookEndpoint,
  WebhookEndpointInput,
} from "../../application/outgoing-webhooks/manage-endpoints.ts";
import type {
  DeliveryFilter,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChange,
} from "../../application/outgoing-webhooks/ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { noContent, page } from "./openapi-models.ts";
import {
  CreateWebhookEndpointBody,
  KeyedWebhookEndpointSchema,
  toWebhookDeliveryBody,
  toWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDeliverySchema,
  WebhookDeliveryStateSchema,
  WebhookEndpointSchema,
} from "./outgoing-webhook-schemas.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface AdminWebhookEndpointDeps {
  readonly auth: AuthOptions;
  createWebhookEndpoint(actorId: string, input: WebhookEndpointInput): Promise<KeyedWebhookEndpoint>;
  listWebhookEndpoints(page: PageRequest): Promise<Page<WebhookEndpoint>>;
  getWebhookEndpoint(id: string): Promise<WebhookEndpoint>;
  updateWebhookEndpoint(actorId: string, id: string, change: WebhookEndpointChange): Promise<WebhookEndpoint>;
  deleteWebhookEndpoint(actorId: string, id: string): Promise<void>;
  rotateWebhookEndpointSecret(actorId: string, id: string): Promise<KeyedWebhookEndpoint>;
  listWebhookDeliveries(endpointId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>>;
  redeliverWebhook(actorId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery>;
}

const keyed = ({ endpoint, secret }: KeyedWebhookEndpoint) => ({ ...toWebhookEndpointBody(endpoint), secret });

const DeliveryParams = t.Object({ id: t.String({ maxLength: 64 }), delivery_id: t.String({ maxLength: 64 }) });

/** Receivers of the shop's outgoing webhooks (Standard Webhooks) and their deliveries; a secret shows only when made. */
export function createAdminWebhookEndpointRoutes(deps: AdminWebhookEndpointDeps) {
  return new Elysia({ name: "admin-webhook-endpoint-routes", tags: ["admin: webhooks"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .post(
          "/api/admin/webhook-endpoints",
          async ({ body, principal, set }) => {
            const created = await deps.createWebhookEndpoint(principal.userId, body);
            set.status = 201;
            return keyed(created);
          },
          {
            body: CreateWebhookEndpointBody,
            response: { 201: KeyedWebhookEndpointSchema },
            detail: { summary: "Add a receiver of outgoing webhooks; its signing secret is in this answer only" },
          },
        )
        .get(
          "/api/admin/webhook-endpoints",
          async ({ query }) => {
            const found = await deps.listWebhookEndpoints(pageRequest(query));
            return { items: found.items.map(toWebhookEndpointBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({ cursor: Cursor, limit: ListLimit }),
            response: { 200: page(WebhookEndpointSchema) },
            detail: { summary: "Webhook endpoints, newest first, without their secrets" },
          },
        )
        .get(
          "/api/admin/webhook-endpoints/:id",
          async ({ params }) => toWebhookEndpointBody(await deps.getWebhookEndpoint(params.id)),
          {
            params: IdParams,
            response: { 200: WebhookEndpointSchema },
            detail: { summary: "One webhook endpoint, without its secret" },
          },
        )
        .patch(
          "/api/admin/webhook-endpoints/:id",
          async ({ params, body, principal }) =>
            toWebhookEndpointBody(await deps.updateWebhookEndpoint(principal.userId, params.id, body)),
          {
            params: IdParams,
            body: UpdateWebhookEndpointBody,
            response: { 200: WebhookEndpointSchema },
            detail: { summary: "Change a webhook endpoint's URL, events or description" },
          },
        )
        .delete(
          "/api/admin/webhook-endpoints/:id",
          async ({ params, principal, set }) => {
            await deps.deleteWebhookEndpoint(principal.userId, params.id);
            set.status = 204;
          },
          {
            params: IdParams,
            detail: {
              summary: "Remove a webhook endpoint; its deliveries still pending are not sent",
              responses: noContent("Removed"),
            },
          },
        )
        .post(
          "/api/admin/webhook-endpoints/:id/rotate-secret",
          async ({ params, principal }) => keyed(await deps.rotateWebhookEndpointSecret(principal.userId, params.id)),
          {
            params: IdParams,
            response: { 200: KeyedWebhookEndpointSchema },
            detail: {
              summary: "Make a new signing secret; the previous one keeps signing beside it for 24 hours",
            },
          },
        )
        .get(
          "/api/admin/webhook-endpoints/:id/deliveries",
          async ({ params, query }) => {
            const filter = {
              ...(query.state ? { state: query.state } : {}),
              ...(query.replay_id ? { replay_id: query.replay_id } : {}),
            };
            const found = await deps.listWebhookDeliveries(params.id, filter, pageRequest(query));
            return { items: found.items.map(toWebhookDeliveryBody), next_cursor: found.next_cursor };
          },
          {
            params: IdParams,
            query: t.Object({
              state: t.Optional(WebhookDeliveryStateSchema),
              replay_id: t.Optional(t.String({ maxLength: 64, description: "Only the deliveries this replay sent" })),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(WebhookDeliverySchema) },
            detail: { summary: "An endpoint's deliveries, newest first, by state or by the replay that sent them" },
          },
        )
        .post(
          "/api/admin/webhook-endpoints/:id/deliveries/:delivery_id/redeliver",
          async ({ params, principal, set }) => {
            const requeued = await deps.redeliverWebhook(principal.userId, params.id, params.delivery_id);
            set.status = 202;
            return toWebhookDeliveryBody(requeued);
          },
          {
            params: DeliveryParams,
            response: { 202: WebhookDeliverySchema },
            detail: {
              summary:
                "Send a delivery again from its first attempt, same webhook-id: one that succeeded, died, or whose job ended without a verdict",
            },
          },
        ),
    );
}
