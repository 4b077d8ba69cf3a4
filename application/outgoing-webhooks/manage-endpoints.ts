import { WebhookEndpointNotFound } from "../../domain/outgoing-webhooks/errors.ts";
import { SECRET_OVERLAP_MS } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { isHttpUrl } from "../../domain/shared/http-url.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import { assertOutboundUrls, type OutboundUrlPolicy } from "../shared/outbound-urls.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import type {
  OutgoingEventType,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointRepository,
  WebhookUnitOfWork,
} from "./ports.ts";

export interface WebhookEndpointInput {
  readonly url: string;
  readonly events: readonly OutgoingEventType[];
  readonly description?: string | null;
}

/** An endpoint as created or re-keyed: the only answers that ever carry its secret. */
export interface KeyedWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

const TARGET = "webhook_endpoint";

/** http(s) without credentials, then the outbound guard: a private or loopback address is refused. */
async function assertReceiver(urls: OutboundUrlPolicy, url: string): Promise<void> {
  if (!isHttpUrl(url)) {
    throw new ValidationFailed([
      { path: "/url", code: "INVALID_URL", message: "must be an absolute http(s) URL without credentials" },
    ]);
  }
  await assertOutboundUrls(urls, [{ path: "/url", url }]);
}

const distinct = (events: readonly OutgoingEventType[]) => [...new Set(events)];

/** What an update changed, field by field; the secret is never part of it. */
function changes(before: WebhookEndpoint, after: WebhookEndpoint): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  if (before.url !== after.url) summary.url = { from: before.url, to: after.url };
  if (before.events.join() !== after.events.join()) summary.events = { from: before.events, to: after.events };
  if (before.description !== after.description) {
    summary.description = { from: before.description, to: after.description };
  }
  return summary;
}

/**
 * Admins manage the receivers of outgoing webhooks. Each write and its audit entry commit together.
 * A secret is made here and shown once (on create and on rotation); rotating keeps the old one
 * signing for `SECRET_OVERLAP_MS`, so a receiver can switch over without refusing a delivery.
 */
export function makeWebhookEndpointAdmin(deps: {
  readonly endpoints: Pick<WebhookEndpointRepository, "find" | "list">;
  readonly uow: WebhookUnitOfWork;
  readonly urls: OutboundUrlPolicy;
  readonly newSecret: () => string;
  readonly clock: Clock;
}) {
  async function get(id: string): Promise<WebhookEndpoint> {
    const endpoint = await deps.endpoints.find(id);
    if (!endpoint) throw new WebhookEndpointNotFound();
    return endpoint;
  }

  return {
    get,
    list: (page: PageRequest): Promise<Page<WebhookEndpoint>> => deps.endpoints.list(page),

    async create(actorId: string, input: WebhookEndpointInput): Promise<KeyedWebhookEndpoint> {
      await assertReceiver(deps.urls, input.url);
      const secret = deps.newSecret();
      const events = distinct(input.events);
      const description = input.description ?? null;
      return deps.uow.run(async (scope) => {
        const endpoint = await scope.endpoints.create({ url: input.url, events, description, secret });
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.create",
          target_type: TARGET,
          target_id: endpoint.id,
          summary: { url: endpoint.url, events: endpoint.events, description },
        });
        return { endpoint, secret };
      });
    },

    async update(actorId: string, id: string, change: WebhookEndpointChange): Promise<WebhookEndpoint> {
      if (change.url !== undefined) await assertReceiver(deps.urls, change.url);
      const cleaned: WebhookEndpointChange = {
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.events !== undefined ? { events: distinct(change.events) } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
      };
      return deps.uow.run(async (scope) => {
        const before = await scope.endpoints.find(id);
        const after = before && (await scope.endpoints.update(id, cleaned));
        if (!before || !after) throw new WebhookEndpointNotFound();
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.update",
          target_type: TARGET,
          target_id: id,
          summary: changes(before, after),
        });
        return after;
      });
    },

    /** Its deliveries go with it: the ones still pending are never sent. */
    async remove(actorId: string, id: string): Promise<void> {
      await deps.uow.run(async (scope) => {
        const endpoint = await scope.endpoints.find(id);
        if (!endpoint || !(await scope.endpoints.remove(id))) throw new WebhookEndpointNotFound();
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.delete",
          target_type: TARGET,
          target_id: id,
          summary: { url: endpoint.url, events: endpoint.events },
        });
      });
    },

    async rotateSecret(actorId: string, id: string): Promise<KeyedWebhookEndpoint> {
      const secret = deps.newSecret();
      const previousUntil = new Date(deps.clock().getTime() + SECRET_OVERLAP_MS);
      return deps.uow.run(async (scope) => {
        const endpoint = await scope.endpoints.rotateSecret(id, secret, previousUntil);
        if (!endpoint) throw new WebhookEndpointNotFound();
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.rotate_secret",
          target_type: TARGET,
          target_id: id,
          summary: { previous_secret_valid_until: previousUntil.toISOString() },
        });
        return { endpoint, secret };
      });
    },
  };
}

export type WebhookEndpointAdmin = ReturnType<typeof makeWebhookEndpointAdmin>;
