import { awaitsVerifiedEmail } from "../../domain/fulfillment/fulfillment.ts";
import { FULFILLMENT_GUARDS } from "../../domain/fulfillment/status-guards.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { JobHandler } from "../shared/jobs.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { fulfillJob, type releaseHeldDeliveriesJob } from "./jobs.ts";
import { logFields } from "./log-fields.ts";
import type { FulfillmentRepository } from "./ports.ts";

const PAGE = 100;

/**
 * The customer's address is verified: every delivery of theirs held for it goes back to
 * `processing` with its fulfill job, each in a transaction of its own. A record that moved meanwhile
 * is left alone; a run repeated finds nothing more to release.
 */
export function makeReleaseHeldDeliveries(deps: {
  readonly fulfillments: FulfillmentRepository;
  readonly uow: UnitOfWork;
  readonly log: Log;
}): JobHandler<typeof releaseHeldDeliveriesJob> {
  return async function releaseHeldDeliveries({ customer_id }, job) {
    let cursor: string | undefined;
    do {
      const page = await deps.fulfillments.list(
        { customer_id, status: "awaiting_customer" },
        { limit: PAGE, ...(cursor ? { cursor } : {}) },
      );
      for (const record of page.items.filter(awaitsVerifiedEmail)) {
        const { awaiting: _, ...snapshot } = record.payload_snapshot;
        const moved = await deps.uow.run(async (scope) => {
          const resumed = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.resumeWithInput, {
            status: "processing",
            snapshot,
          });
          if (resumed) await scope.jobs.enqueue(fulfillJob({ fulfillment_id: record.id }));
          return resumed;
        }, job);
        if (moved) deps.log.info(logFields(moved), "fulfillment released: the customer's address is verified");
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  };
}
