import {
  WebhookEndpointNotFound,
  WebhookReplayNotFound,
  WebhookReplayRunning,
} from "../../domain/outgoing-webhooks/errors.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import { webhookReplayJob } from "./jobs.ts";
import type { WebhookEndpointRepository, WebhookUnitOfWork } from "./ports.ts";
import type { WebhookReplay, WebhookReplayRepository } from "./replay-ports.ts";

export interface WebhookReplayRequest {
  readonly since: Date;
  /** Defaults to now, as does a time past now: events made later are sent as they happen. */
  readonly until?: Date;
  readonly only_failed?: boolean;
}

/** `since` in the past, `until` after it: the window is otherwise unbounded (events are kept 30 days). */
function windowOf(request: WebhookReplayRequest, now: Date): { since: Date; until: Date } {
  const until = request.until && request.until < now ? request.until : now;
  if (request.since >= now) {
    throw new ValidationFailed([{ path: "/since", code: "IN_THE_FUTURE", message: "must be in the past" }]);
  }
  if (request.until && request.until <= request.since) {
    throw new ValidationFailed([{ path: "/until", code: "NOT_AFTER_SINCE", message: "must be after since" }]);
  }
  return { since: request.since, until };
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

    async get(endpointId: string, replayId: string): Promise<WebhookReplay> {
      const replay = await deps.replays.find(endpointId, replayId);
      if (!replay) throw new WebhookReplayNotFound();
      return replay;
    },
  };
}

export type WebhookReplayAdmin = ReturnType<typeof makeWebhookReplayAdmin>;
