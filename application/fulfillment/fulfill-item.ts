import { AWAITING_VERIFIED_EMAIL, type FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { FULFILLMENT_GUARDS } from "../../domain/fulfillment/status-guards.ts";
import type { Log } from "../shared/clock-and-log.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import type { JobContext, PayloadOf } from "../shared/jobs.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import type { fulfillJob } from "./jobs.ts";
import { logFields } from "./log-fields.ts";
import { notify } from "./notify.ts";
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
  /** REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY: a customer whose address is not verified waits for it. */
  readonly requireVerifiedEmail: boolean;
}

/** The outcome of a delivery held until its customer's address is verified; the adapter is not called. */
const HELD_FOR_VERIFIED_EMAIL: FulfillmentOutcome = {
  status: "awaiting_customer",
  reason: "the customer's email address is not verified yet",
  snapshot: { awaiting: AWAITING_VERIFIED_EMAIL },
};

function externalOf(outcome: FulfillmentOutcome): Partial<ExternalRefs> {
  if (outcome.status === "awaiting_customer") return {};
  const { status: _status, snapshot: _snapshot, ...refs } = outcome;
  return refs;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * The fulfill job: hands a queued record to the adapter of its driver (a typed registry, no
 * branching on product here). A transient failure puts the record back to `queued` and lets the
 * job retry with backoff; a permanent one, or the last attempt, makes it `failed` with a
 * `fulfillment.failed` notification and dead-letters the job.
 */
export function makeFulfillItem(deps: FulfillItemDeps) {
  async function settle(record: FulfillmentRecord, outcome: FulfillmentOutcome, job: JobContext) {
    const { status, snapshot } = outcome;
    await deps.uow.run(async (scope) => {
      const done = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.deliver, {
        status,
        ...(snapshot ? { snapshot: { ...record.payload_snapshot, ...snapshot } } : {}),
        external: externalOf(outcome),
      });
      if (done?.status === "active") await notify(scope, "fulfillment.ready", done);
      if (done?.status === "awaiting_customer") await notify(scope, "fulfillment.action_required", done);
    }, job);
    deps.log.info({ ...logFields(record), status }, "fulfillment delivered");
  }

  async function fail(record: FulfillmentRecord, error: unknown, job: JobContext) {
    const transient = (error as { transient?: unknown }).transient !== false;
    const final = !transient || job.lastAttempt;
    await deps.uow.run(async (scope) => {
      const moved = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.fail, {
        status: final ? "failed" : "queued",
        last_error: message(error),
      });
      if (moved?.status === "failed") await notify(scope, "fulfillment.failed", moved);
    }, job);
    deps.log[final ? "error" : "warn"](
      { ...logFields(record), error: message(error), final },
      "fulfillment attempt failed",
    );
  }

  return async function fulfillItem(payload: PayloadOf<typeof fulfillJob>, job: JobContext): Promise<void> {
    const existing = await deps.fulfillments.find(payload.fulfillment_id);
    if (!existing) throw new PermanentJobFailure(`fulfillment ${payload.fulfillment_id} does not exist`);
    // A dead-lettered job run again by an admin (redrive) finds its record `failed`: that is a retry,
    // so the record goes back to `queued` first. Onboarding is idempotent, so nothing is provisioned twice.
    let current = existing;
    if (existing.status === "failed") {
      const requeued = await deps.fulfillments.transition(existing.id, FULFILLMENT_GUARDS.retry, { status: "queued" });
      if (!requeued) return;
      deps.log.info(logFields(requeued), "fulfillment redriven");
      current = requeued;
    }
    // A record already past delivery (or cancelled, or waiting for the customer) needs nothing.
    if (current.status !== "queued" && current.status !== "processing") return;
    // The context (order, item, product, customer, payment) is read while the claim is written:
    // it needs only the record's ids, so delivery starts one round trip sooner. Unused if the
    // record was taken meanwhile; its failure is the attempt's failure.
    const loading = deps.contexts.load(existing);
    loading.catch(() => {});
    const attempts = existing.attempts + 1;
    // A queued record starts; one already `processing` (its last run died midway, or the customer's
    // input resumed it) is taken up again where it stands: that is no move of the state machine.
    const record =
      current.status === "queued"
        ? await deps.fulfillments.transition(existing.id, FULFILLMENT_GUARDS.start, { status: "processing", attempts })
        : await deps.fulfillments.reclaim(existing.id, attempts);
    if (!record) return;
    let outcome: FulfillmentOutcome;
    try {
      const context = { ...(await loading), record };
      outcome =
        deps.requireVerifiedEmail && !context.customer.emailVerified
          ? HELD_FOR_VERIFIED_EMAIL
          : await deps.adapters[record.driver].fulfill(context);
    } catch (error) {
      await fail(record, error, job);
      throw error;
    }
    await settle(record, outcome, job);
  };
}
