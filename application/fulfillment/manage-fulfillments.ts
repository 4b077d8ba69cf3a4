import {
  customerDomainFault,
  customerDomainRefused,
  normalizeDomain,
} from "../../domain/fulfillment/customer-domain.ts";
import { FulfillmentNotFound, FulfillmentStateConflict, TaskNotFound } from "../../domain/fulfillment/errors.ts";
import { awaitsVerifiedEmail, type FulfillmentRecord, isLive } from "../../domain/fulfillment/fulfillment.ts";
import { FULFILLMENT_GUARDS, fromOnly } from "../../domain/fulfillment/status-guards.ts";
import { type AuditEntry, redactSummary } from "../audit/ports.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { TransactionScope, UnitOfWork } from "../shared/unit-of-work.ts";
import { fulfillJob } from "./jobs.ts";
import { logFields } from "./log-fields.ts";
import { notify } from "./notify.ts";
import type {
  ExternalState,
  FulfillmentAction,
  FulfillmentAdapter,
  FulfillmentAdapters,
  FulfillmentContext,
  FulfillmentContextLoader,
  FulfillmentRepository,
  OpsTaskRepository,
} from "./ports.ts";

/** An admin's action on a delivery (`fulfillment.retry`, `fulfillment.cancel`...), for the audit log. */
function fulfillmentEntry(
  actorId: string,
  verb: string,
  record: FulfillmentRecord,
  summary: Readonly<Record<string, unknown>>,
): AuditEntry {
  return {
    actor_id: actorId,
    action: `fulfillment.${verb}`,
    target_type: "fulfillment",
    target_id: record.id,
    summary: redactSummary({ order_id: record.order_id, driver: record.driver, ...summary }),
  };
}

/** What the adapter is asked to do for an action on an active delivery. */
function perform(
  adapter: FulfillmentAdapter,
  context: FulfillmentContext,
  action: Exclude<FulfillmentAction, "cancel">,
  reason: string,
): Promise<ExternalState> {
  const resume = () => adapter.resume?.(context) ?? adapter.syncStatus(context);
  switch (action) {
    case "suspend":
      return adapter.suspend(context, reason);
    case "resume":
      return resume();
    case "renew":
      // Paid again: a trial converts and a lapsed delivery comes back; an active one only refreshes.
      if (adapter.renew) return adapter.renew(context);
      return context.record.external_status === "active" ? adapter.syncStatus(context) : resume();
    case "change_plan":
      if (adapter.changePlan) return adapter.changePlan(context);
      return perform(adapter, context, "renew", reason);
    case "sync":
      return adapter.syncStatus(context);
  }
}

export function makeManageFulfillments(deps: {
  adapters: FulfillmentAdapters;
  fulfillments: FulfillmentRepository;
  contexts: FulfillmentContextLoader;
  tasks: OpsTaskRepository;
  uow: UnitOfWork;
  log: Log;
}) {
  async function find(id: string, customerId?: string): Promise<FulfillmentRecord> {
    const record = await deps.fulfillments.find(id);
    // Another customer's record is simply not found: its existence is not theirs to learn.
    if (!record || (customerId !== undefined && record.customer_id !== customerId)) throw new FulfillmentNotFound();
    return record;
  }

  /**
   * A failed delivery goes back to the queue (onboarding is idempotent, so no duplicate); an admin's
   * retry is written to the audit log in the same transaction.
   */
  async function retryFailed(record: FulfillmentRecord, actorId?: string) {
    if (record.status !== "failed")
      throw new FulfillmentStateConflict(`Only a failed fulfillment can be retried; this one is ${record.status}.`);
    const moved = await deps.uow.run(async (scope) => {
      const queued = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.retry, { status: "queued" });
      if (!queued) throw new FulfillmentStateConflict(`A ${record.status} fulfillment cannot be queued again.`);
      await scope.jobs.enqueue(fulfillJob({ fulfillment_id: record.id }));
      if (actorId !== undefined) {
        await scope.audit.record(
          fulfillmentEntry(actorId, "retry", record, {
            status: { from: "failed", to: "queued" },
            last_error: record.last_error,
          }),
        );
      }
      return queued;
    });
    deps.log.info(logFields(moved), "fulfillment retry queued");
    return moved;
  }

  return {
    find,

    /** The customer retries their own failed delivery. */
    async retry(id: string, customerId: string) {
      return retryFailed(await find(id, customerId));
    },

    /** An admin retries any failed delivery. */
    async adminRetry(id: string, actorId: string) {
      return retryFailed(await find(id), actorId);
    },

    /** The customer supplies what `awaiting_customer` waits for (a domain); delivery resumes. */
    async supplyInput(id: string, customerId: string, input: { domain: string }) {
      const record = await find(id, customerId);
      if (record.status !== "awaiting_customer") {
        throw new FulfillmentStateConflict(`This fulfillment is ${record.status}; it is not waiting for you.`);
      }
      if (awaitsVerifiedEmail(record)) {
        throw new FulfillmentStateConflict(
          "This delivery waits for your email address to be verified: open the link we emailed you.",
        );
      }
      const domain = normalizeDomain(input.domain);
      const fault = customerDomainFault(domain, []);
      if (fault) throw customerDomainRefused(fault);
      // The driver's own rules (a domain already in use, the platform's own) answer before anything moves.
      await deps.adapters[record.driver].acceptCustomerInput?.(await deps.contexts.load(record), { domain });
      return deps.uow.run(async (scope) => {
        const moved = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.resumeWithInput, {
          status: "processing",
          snapshot: { ...record.payload_snapshot, customer_input: { domain } },
        });
        if (!moved) throw new FulfillmentStateConflict("This fulfillment changed meanwhile; reload it.");
        await scope.jobs.enqueue(fulfillJob({ fulfillment_id: record.id }));
        return moved;
      });
    },

    /**
     * Cancel, suspend, resume, renew or refresh what the adapter delivered. With `actorId` (an
     * admin asked), the audit entry is written in the transaction that stores the outcome; without
     * it the shop acts on its own (a job).
     */
    async act(id: string, action: FulfillmentAction, reason: string, actorId?: string) {
      const record = await find(id);
      const adapter = deps.adapters[record.driver];
      const audit = (scope: TransactionScope, summary: Readonly<Record<string, unknown>>) =>
        actorId === undefined
          ? Promise.resolve()
          : scope.audit.record(fulfillmentEntry(actorId, action, record, { reason, ...summary }));
      if (action === "cancel") {
        if (record.status === "cancelled") return record;
        const guard = fromOnly(FULFILLMENT_GUARDS.cancel, record.status);
        // Anything past the queue has something at the adapter's side (a tenant, a task, an installation).
        const delivered =
          (record.status !== "queued" && record.status !== "failed") || record.external_reference_id !== null;
        const state = delivered ? await adapter.cancel(await deps.contexts.load(record), reason) : null;
        await deps.tasks.cancelFor(record.id);
        const moved = await deps.uow.run(async (scope) => {
          const cancelled = await scope.fulfillments.transition(record.id, guard, {
            status: "cancelled",
            ...(state ? { external: { external_status: state.external_status } } : {}),
          });
          // Another request moved it first: its own entry tells that change.
          if (cancelled) {
            await audit(scope, {
              status: { from: record.status, to: "cancelled" },
              external_status: state?.external_status ?? null,
            });
          }
          return cancelled;
        });
        deps.log.info({ ...logFields(record), reason }, "fulfillment cancelled");
        return moved ?? (await find(id));
      }
      if (!isLive(record.status) || record.status !== "active") {
        throw new FulfillmentStateConflict(
          `Only an active fulfillment can be ${action.replace(/e?$/, "ed")}; this one is ${record.status}.`,
        );
      }
      const state = await perform(adapter, await deps.contexts.load(record), action, reason);
      await deps.uow.run(async (scope) => {
        await scope.fulfillments.setExternalStatus(record.id, state);
        await audit(scope, { external_status: { from: record.external_status, to: state.external_status } });
      });
      deps.log.info({ ...logFields(record), action, external_status: state.external_status }, "fulfillment updated");
      return find(id);
    },

    listTasks: deps.tasks.list,

    /** Ops finished a task: the adapter records what was delivered and the item becomes active. */
    async completeTask(taskId: string, adminId: string, result: Readonly<Record<string, unknown>>) {
      const task = await deps.tasks.find(taskId);
      if (task?.status !== "open") throw new TaskNotFound();
      const record = await find(task.fulfillment_record_id);
      if (record.status !== "manual_pending") {
        throw new FulfillmentStateConflict(`The fulfillment is ${record.status}, not waiting for this task.`);
      }
      const adapter = deps.adapters[record.driver];
      const refs = adapter.completeTask
        ? await adapter.completeTask(await deps.contexts.load(record), task, result)
        : { external_reference_id: task.id };
      await deps.tasks.complete(task.id, adminId, result);
      return deps.uow.run(async (scope) => {
        const moved = await scope.fulfillments.transition(record.id, FULFILLMENT_GUARDS.completeTask, {
          status: "active",
          external: refs,
        });
        if (!moved) throw new FulfillmentStateConflict("The fulfillment changed meanwhile.");
        await scope.audit.record({
          actor_id: adminId,
          action: "manual_task.complete",
          target_type: "manual_task",
          target_id: task.id,
          summary: redactSummary({ fulfillment_id: record.id, order_id: record.order_id, kind: task.kind, result }),
        });
        await notify(scope, "fulfillment.ready", moved);
        deps.log.info(logFields(moved), "operations task completed; fulfillment active");
        return moved;
      });
    },
  };
}
