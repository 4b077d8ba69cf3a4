import { FulfillmentNotFound, FulfillmentStateConflict } from "../../domain/fulfillment/errors.ts";
import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { JobHandler } from "../shared/jobs.ts";
import type { fulfillmentActionJob } from "./jobs.ts";
import type { FulfillmentAction } from "./ports.ts";

/**
 * The `fulfillment_action` job: suspends, resumes, renews or cancels one delivery. A record that
 * moved on meanwhile (cancelled, or no longer in a state the action applies to) leaves nothing to do.
 */
export function makeFulfillmentActionJob(deps: {
  readonly act: (id: string, action: FulfillmentAction, reason: string) => Promise<FulfillmentRecord>;
  readonly log: Log;
}): JobHandler<typeof fulfillmentActionJob> {
  return async ({ fulfillment_id, action, reason }) => {
    try {
      await deps.act(fulfillment_id, action, reason);
    } catch (error) {
      if (!(error instanceof FulfillmentStateConflict || error instanceof FulfillmentNotFound)) throw error;
      deps.log.info({ fulfillment_id, action, reason: error.message }, "action skipped");
    }
  };
}
