import {
  WebhookEndpointNotFound,
  WebhookReplayNotFound,
  WebhookReplayRunning,
} from "../../domain/outgoing-webhooks/errors.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { parseInstant } from "../../domain/shared/instant.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import { webhookReplayJob } from "./jobs.ts";
import type { WebhookEndpointRepository, WebhookUnitOfWork } from "./ports.ts";
import type { WebhookReplay, WebhookReplayRepository } from "./replay-ports.ts";

/** `since` and `until` as written: RFC 3339 date-times. */
export interface WebhookReplayRequest {
  readonly since: string;
  /** Defaults to now, as does a time past now: events made later are sent as they happen. */
  readonly until?: string;
  readonly only_failed?: boolean;
}

function instantAt(path: string, text: string): Date {
  const at = parseInstant(text);
  if (at) return at;
  throw new ValidationFailed([
    { path, code: "INVALID_DATE_TIME", message: "must be a real date and time between the years 1 and 9999" },
  ]);
}

/** `since` in the past, `until` after it: the window is otherwise unbounded (events are kept 30 days). */
function windowOf(request: WebhookReplayRequest, now: Date): { since: Date; until: Date } {
  const since = instantAt("/since", request.since);
  const asked = request.until === undefined ? undefined : instantAt("/until", request.until);
  if (since >= now) {
    throw new ValidationFailed([{ path: "/since", code: "IN_THE_FUTURE", message: "must be in the past" }]);
  }
  if (asked && asked <= since) {
    throw new ValidationFailed([{ path: "/until", code: "NOT_AFTER_SINCE", message: "must be after since" }]);
  }
  return { since, until: asked && asked < now ? asked : now };
}

/**
 * Sending an endpoint's events of a time window again, in creation order, at the replay rate, each
 * under its delivery's `webhook-id`. One replay per endpoint sends at a time: a second request
 * while one runs is a 409, so two replays never interleave their events at the receiver.
 */
export function makeWebhookReplayAdmin(deps: {
  readonly endpoints: Pick<WebhookEndpointRepository, "find">;
  readonly replays: Pick<WebhookReplayRepository, "find" | "list">;
  readonly uow: WebhookUnitOfWork;
  readonly clock: Clock;
}) {
  return {
    async start(actorId: string, endpointId: string, request: WebhookReplayRequest): Promise<WebhookReplay> {
      if (!(await deps.endpoints.find(endpointId))) throw new WebhookEndpointNotFound();
      const window = windowOf(request, deps.clock());
      const only_failed = request.only_failed ?? false;
      return deps.uow.run(async (scope) => {
        const replay = await scope.replays.start({ endpoint_id: endpointId, ...window, only_failed });
        if (!replay) throw new WebhookReplayRunning();
        await scope.jobs.enqueue(webhookReplayJob({ replay_id: replay.id, step: 0 }));
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.replay",
          target_type: "webhook_endpoint",
          target_id: endpointId,
          summary: {
            replay_id: replay.id,
            since: window.since.toISOString(),
            until: window.until.toISOString(),
            only_failed,
            total: replay.total,
          },
        });
        return replay;
      });
    },

    /** Newest first: the one running, if any, is the first. */
    async list(endpointId: string, page: PageRequest): Promise<Page<WebhookReplay>> {
      if (!(await deps.endpoints.find(endpointId))) throw new WebhookEndpointNotFound();
      return deps.replays.list(endpointId, page);
    },

    /**
     * Stops a running replay: its step job sends nothing more from its next event on, and the
     * endpoint may replay again at once. Deliveries it sent keep their own retries. A replay that
     * has already finished is returned as it is.
     */
    async cancel(actorId: string, endpointId: string, replayId: string): Promise<WebhookReplay> {
      await deps.uow.run(async (scope) => {
        if (!(await scope.replays.cancel(endpointId, replayId, deps.clock()))) return;
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_endpoint.replay_cancel",
          target_type: "webhook_endpoint",
          target_id: endpointId,
          summary: { replay_id: replayId },
        });
      });
      const replay = await deps.replays.find(endpointId, replayId);
      if (!replay) throw new WebhookReplayNotFound();
      return replay;
    },

    async get(endpointId: string, replayId: string): Promise<WebhookReplay> {
      const replay = await deps.replays.find(endpointId, replayId);
      if (!replay) throw new WebhookReplayNotFound();
      return replay;
    },
  };
}

export type WebhookReplayAdmin = ReturnType<typeof makeWebhookReplayAdmin>;
