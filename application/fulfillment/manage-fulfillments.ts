import {
  assertTransition,
  FulfillmentNotFound,
  type FulfillmentRecord,
  FulfillmentStateConflict,
  isLive,
} from "../../domain/fulfillment/fulfillment.ts";
import { fixedError, ValidationFailed } from "../../domain/shared/domain-error.ts";
import type { Log } from "../shared/runtime.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { logFields, notify } from "./fulfill-item.ts";
import type {
  ExternalState,
  FulfillmentAdapter,
  FulfillmentAdapters,
  FulfillmentContext,
  FulfillmentContextLoader,
  FulfillmentRepository,
  OpsTaskRepository,
} from "./ports.ts";
import { FULFILL_JOB, type FulfillmentAction } from "./ports.ts";

export class TaskNotFound extends fixedError(
  "TASK_NOT_FOUND",
  "not_found",
  "The task does not exist or is no longer open.",
) {}

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
    case "sync":
      return adapter.syncStatus(context);
  }
}

const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

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

  async function requeue(record: FulfillmentRecord, from: FulfillmentRecord["status"][], change: object = {}) {
    return deps.uow.run(async (scope) => {
      const moved = await scope.fulfillments.transition(record.id, from, { status: "queued", ...change });
      if (!moved) throw new FulfillmentStateConflict(`A ${record.status} fulfillment cannot be queued again.`);
      await scope.jobs.enqueue({
        kind: FULFILL_JOB,
        payload: { fulfillment_id: record.id },
        dedupeKey: `fulfill:${record.id}`,
      });
      return moved;
    });
  }

  return {
    find,

    /** Admin or customer: a failed delivery goes back to the queue (onboarding is idempotent, so no duplicate). */
    async retry(id: string, customerId?: string) {
      const record = await find(id, customerId);
      if (record.status !== "failed")
        throw new FulfillmentStateConflict(`Only a failed fulfillment can be retried; this one is ${record.status}.`);
      const moved = await requeue(record, ["failed"]);
      deps.log.info(logFields(moved), "fulfillment retry queued");
      return moved;
    },

    /** The customer supplies what `awaiting_customer` waits for (a domain); delivery resumes. */
    async supplyInput(id: string, customerId: string, input: { domain: string }) {
      const record = await find(id, customerId);
      if (record.status !== "awaiting_customer") {
        throw new FulfillmentStateConflict(`This fulfillment is ${record.status}; it is not waiting for you.`);
      }
      assertTransition(record.status, "processing");
      const domain = input.domain.trim().toLowerCase();
      if (!DOMAIN.test(domain)) {
        throw new ValidationFailed([
          { path: "/domain", code: "INVALID_DOMAIN", message: "must be a domain name such as shop.example.com" },
        ]);
      }
      return deps.uow.run(async (scope) => {
        const moved = await scope.fulfillments.transition(record.id, ["awaiting_customer"], {
          status: "processing",
          snapshot: { ...record.payload_snapshot, customer_input: { domain } },
        });
        if (!moved) throw new FulfillmentStateConflict("This fulfillment changed meanwhile; reload it.");
        await scope.jobs.enqueue({
          kind: FULFILL_JOB,
          payload: { fulfillment_id: record.id },
          dedupeKey: `fulfill:${record.id}`,
        });
        return moved;
      });
    },

    /** Cancel, suspend, resume, renew or refresh what the adapter delivered. */
    async act(id: string, action: FulfillmentAction, reason: string) {
      const record = await find(id);
      const adapter = deps.adapters[record.driver];
      if (action === "cancel") {
        if (record.status === "cancelled") return record;
        assertTransition(record.status, "cancelled");
        // Anything past the queue has something at the adapter's side (a tenant, a task, an installation).
        const delivered =
          (record.status !== "queued" && record.status !== "failed") || record.external_reference_id !== null;
        const state = delivered ? await adapter.cancel(await deps.contexts.load(record), reason) : null;
        await deps.tasks.cancelFor(record.id);
        const moved = await deps.fulfillments.transition(record.id, [record.status], {
          status: "cancelled",
          ...(state ? { external: { external_status: state.external_status } } : {}),
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
      await deps.fulfillments.setExternalStatus(record.id, state);
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
      assertTransition(record.status, "active");
      const adapter = deps.adapters[record.driver];
      const refs = adapter.completeTask
        ? await adapter.completeTask(await deps.contexts.load(record), task, result)
        : { external_reference_id: task.id };
      await deps.tasks.complete(task.id, adminId, result);
      return deps.uow.run(async (scope) => {
        const moved = await scope.fulfillments.transition(record.id, ["manual_pending"], {
          status: "active",
          external: refs,
        });
        if (!moved) throw new FulfillmentStateConflict("The fulfillment changed meanwhile.");
        await notify(scope, "fulfillment.ready", moved);
        deps.log.info(logFields(moved), "operations task completed; fulfillment active");
        return moved;
      });
    },
  };
}
