import { assertTransition, canTransition, type FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { notifyJob } from "../notifications/jobs.ts";
import type { NotificationKind } from "../notifications/ports.ts";
import { fulfillmentEventData } from "../shared/event-data.ts";
import { type JobContext, PermanentJobFailure } from "../shared/jobs.ts";
import type { Log } from "../shared/runtime.ts";
import type { TransactionScope, UnitOfWork } from "../shared/unit-of-work.ts";
import type {
  ExternalRefs,
  FulfillmentAdapters,
  FulfillmentContextLoader,
  FulfillmentOutcome,
  FulfillmentRepository,
} from "./ports.ts";

export interface FulfillItemDeps {
  readonly adapters: FulfillmentAdapters;
  readonly fulfillments: FulfillmentRepository;
  readonly contexts: FulfillmentContextLoader;
  readonly uow: UnitOfWork;
  readonly log: Log;
}

function externalOf(outcome: FulfillmentOutcome): Partial<ExternalRefs> {
  if (outcome.status === "awaiting_customer") return {};
  const { status: _status, snapshot: _snapshot, ...refs } = outcome;
  return refs;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export const logFields = (record: FulfillmentRecord) => ({
  order_id: record.order_id,
  order_item_id: record.order_item_id,
  driver: record.driver,
  external_reference: record.external_reference_id,
});

/**
 * Writes the notification to the outbox and schedules its delivery, and publishes the same
 * `fulfillment.*` event for the shop's systems (ready and failed), in the caller's transaction.
 */
export async function notify(scope: TransactionScope, kind: NotificationKind, record: FulfillmentRecord) {
  const outboxId = await scope.outbox.add(kind, {
    fulfillment_id: record.id,
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    customer_id: record.customer_id,
    driver: record.driver,
    status: record.status,
    last_error: record.last_error,
  });
  await scope.jobs.enqueue(notifyJob({ outbox_id: outboxId }));
  if (kind !== "fulfillment.action_required") await scope.events.publish(kind, fulfillmentEventData(record));
}

/**
 * The fulfill job: hands a queued record to the adapter of its driver (a typed registry, no
 * branching on product here). A transient failure puts the record back to `queued` and lets the
 * job retry with backoff; a permanent one, or the last attempt, makes it `failed` with a
 * `fulfillment.failed` notification and dead-letters the job.
 */
export function makeFulfillItem(deps: FulfillItemDeps) {
  async function settle(record: FulfillmentRecord, outcome: FulfillmentOutcome) {
    const { status, snapshot } = outcome;
    assertTransition(record.status, status);
    await deps.uow.run(async (scope) => {
      const done = await scope.fulfillments.transition(record.id, ["processing"], {
        status,
        ...(snapshot ? { snapshot: { ...record.payload_snapshot, ...snapshot } } : {}),
        external: externalOf(outcome),
      });
      if (done?.status === "active") await notify(scope, "fulfillment.ready", done);
      if (done?.status === "awaiting_customer") await notify(scope, "fulfillment.action_required", done);
    });
    deps.log.info({ ...logFields(record), status }, "fulfillment delivered");
  }

  async function fail(record: FulfillmentRecord, error: unknown, final: boolean) {
    assertTransition(record.status, final ? "failed" : "queued");
    await deps.uow.run(async (scope) => {
      const moved = await scope.fulfillments.transition(record.id, ["processing"], {
        status: final ? "failed" : "queued",
        last_error: message(error),
      });
      if (moved?.status === "failed") await notify(scope, "fulfillment.failed", moved);
    });
    deps.log[final ? "error" : "warn"](
      { ...logFields(record), error: message(error), final },
      "fulfillment attempt failed",
    );
  }

  return async function fulfillItem(payload: Readonly<Record<string, unknown>>, job: JobContext): Promise<void> {
    const existing = await deps.fulfillments.find(String(payload.fulfillment_id ?? ""));
    if (!existing) throw new PermanentJobFailure(`fulfillment ${String(payload.fulfillment_id)} does not exist`);
    // A dead-lettered job run again by an admin (redrive) finds its record `failed`: that is a retry,
    // so the record goes back to `queued` first. Onboarding is idempotent, so nothing is provisioned twice.
    if (existing.status === "failed") {
      const requeued = await deps.fulfillments.transition(existing.id, ["failed"], { status: "queued" });
      if (!requeued) return;
      deps.log.info(logFields(requeued), "fulfillment redriven");
    } else if (existing.status !== "processing" && !canTransition(existing.status, "processing")) {
      // A record already past delivery (or cancelled) needs nothing; `processing` is a run that died midway.
      return;
    }
    // The context (order, item, product, customer, payment) is read while `processing` is written:
    // it needs only the record's ids, so delivery starts one round trip sooner. Unused if the
    // record was taken meanwhile; its failure is the attempt's failure.
    const loading = deps.contexts.load(existing);
    loading.catch(() => {});
    const record = await deps.fulfillments.transition(existing.id, ["queued", "processing"], {
      status: "processing",
      attempts: existing.attempts + 1,
    });
    if (!record) return;
    let outcome: FulfillmentOutcome;
    try {
      outcome = await deps.adapters[record.driver].fulfill({ ...(await loading), record });
    } catch (error) {
      const transient = (error as { transient?: unknown }).transient !== false;
      await fail(record, error, !transient || job.lastAttempt);
      throw error;
    }
    await settle(record, outcome);
  };
}
