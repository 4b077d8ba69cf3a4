import {
  WebhookDeliveryNotFound,
  WebhookDeliveryPending,
  WebhookEndpointNotFound,
} from "../../domain/outgoing-webhooks/errors.ts";
import type { RetrySchedule } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import { deliveryJob, deliveryRun } from "./fan-out.ts";
import { webhookDeliveryJob } from "./jobs.ts";
import type {
  DeliveryFilter,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookUnitOfWork,
} from "./ports.ts";

/** What admins see of an endpoint's deliveries, and sending one again. */
export function makeWebhookDeliveryAdmin(deps: {
  readonly endpoints: Pick<WebhookEndpointRepository, "find">;
  readonly deliveries: Pick<WebhookDeliveryRepository, "list">;
  readonly uow: WebhookUnitOfWork;
  readonly retrySchedule: RetrySchedule;
}) {
  return {
    async list(endpointId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
      if (!(await deps.endpoints.find(endpointId))) throw new WebhookEndpointNotFound();
      return deps.deliveries.list(endpointId, filter, page);
    },

    /**
     * Sends a delivery again from its first attempt, with the same `webhook-id`, so a receiver that
     * already processed it can tell: one that succeeded or died, and one left pending by a job that
     * ended without a verdict (its last lease expired, its secret could not be opened). A delivery
     * whose job is still queued or running is still being tried.
     */
    async redeliver(actorId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
      return deps.uow.run(async (scope) => {
        if (!(await scope.endpoints.find(endpointId))) throw new WebhookEndpointNotFound();
        const delivery = await scope.deliveries.find(endpointId, deliveryId);
        if (!delivery) throw new WebhookDeliveryNotFound();
        const requeued = await scope.deliveries.requeue(delivery, webhookDeliveryJob.dedupeKey(deliveryRun(delivery)));
        if (!requeued) throw new WebhookDeliveryPending();
        await scope.jobs.enqueue(deliveryJob(requeued, deps.retrySchedule));
        await scope.audit.record({
          actor_id: actorId,
          action: "webhook_delivery.redeliver",
          target_type: "webhook_delivery",
          target_id: delivery.id,
          summary: { endpoint_id: endpointId, event_id: delivery.event_id, previous_state: delivery.state },
        });
        return requeued;
      });
    },
  };
}

export type WebhookDeliveryAdmin = ReturnType<typeof makeWebhookDeliveryAdmin>;
