import { Elysia, t } from "elysia";
import type { WebhookReplay } from "../../application/outgoing-webhooks/replay-ports.ts";
import type { WebhookReplayRequest } from "../../application/outgoing-webhooks/replay-webhooks.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { page } from "./openapi-models.ts";
import { Cursor, IdParams, ListLimit, pageRequest } from "./shared-schemas.ts";
import { ReplayWebhooksBody, toWebhookReplayBody, WebhookReplaySchema } from "./webhook-replay-schemas.ts";

export interface AdminWebhookReplayDeps {
  readonly auth: AuthOptions;
  replayWebhooks(actorId: string, endpointId: string, request: WebhookReplayRequest): Promise<WebhookReplay>;
  listWebhookReplays(endpointId: string, page: PageRequest): Promise<Page<WebhookReplay>>;
  getWebhookReplay(endpointId: string, replayId: string): Promise<WebhookReplay>;
}

const ReplayParams = t.Object({ id: t.String({ maxLength: 64 }), replay_id: t.String({ maxLength: 64 }) });

/** Sending an endpoint's events of a time window again, and how far that has got. */
export function createAdminWebhookReplayRoutes(deps: AdminWebhookReplayDeps) {
  return new Elysia({ name: "admin-webhook-replay-routes", tags: ["admin: webhooks"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .post(
          "/api/admin/webhook-endpoints/:id/replay",
          async ({ params, body, principal, set }) => {
            const replay = await deps.replayWebhooks(principal.userId, params.id, {
              since: new Date(body.since),
              ...(body.until === undefined ? {} : { until: new Date(body.until) }),
              ...(body.only_failed === undefined ? {} : { only_failed: body.only_failed }),
            });
            set.status = 202;
            return toWebhookReplayBody(replay);
          },
          {
            params: IdParams,
            body: ReplayWebhooksBody,
            response: { 202: WebhookReplaySchema },
            detail: {
              summary:
                "Send the endpoint's events of a time window again, in creation order and under their webhook-ids, at the replay rate; 409 while a replay of the endpoint runs",
            },
          },
        )
        .get(
          "/api/admin/webhook-endpoints/:id/replays",
          async ({ params, query }) => {
            const found = await deps.listWebhookReplays(params.id, pageRequest(query));
            return { items: found.items.map(toWebhookReplayBody), next_cursor: found.next_cursor };
          },
          {
            params: IdParams,
            query: t.Object({ cursor: Cursor, limit: ListLimit }),
            response: { 200: page(WebhookReplaySchema) },
            detail: { summary: "The endpoint's replays, newest first, with their progress" },
          },
        )
        .get(
          "/api/admin/webhook-endpoints/:id/replays/:replay_id",
          async ({ params }) => toWebhookReplayBody(await deps.getWebhookReplay(params.id, params.replay_id)),
          {
            params: ReplayParams,
            response: { 200: WebhookReplaySchema },
            detail: { summary: "A replay's progress: events matched, sent a first time, and its deliveries by state" },
          },
        ),
    );
}
