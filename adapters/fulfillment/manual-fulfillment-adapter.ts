import type { FulfillmentAdapter, FulfillmentContext, OpsTaskRepository } from "../../application/fulfillment/ports.ts";
import type { Clock } from "../../application/shared/clock-and-log.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { driverConfig } from "../../domain/fulfillment/driver-config.ts";
import { httpUrlOrNull } from "../../domain/shared/http-url.ts";
import { asOneLine } from "../../domain/shared/plain-text.ts";

const HOUR_MS = 3_600_000;

/**
 * Fills `{{name}}` placeholders (spaces inside the braces allowed) with what the order says.
 * A placeholder we do not know is left as written, so a typo shows up in the task, not as a blank.
 * `{{options}}` is the item's options as JSON with sorted keys, the same text for the same choice.
 * A value is data, never instructions: it stays on its line, a control character in it written out
 * (`\u{a}`), so a customer's name cannot add a line the person doing the task would act on.
 */
export function renderInstructions(template: string, context: FulfillmentContext): string {
  const values: Readonly<Record<string, string>> = {
    order_id: context.order.id,
    order_item_id: context.item.id,
    customer_email: context.customer.email,
    customer_name: context.customer.name,
    product_name: context.product.name,
    variant: context.item.variant,
    options: canonicalJson(context.item.options),
  };
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (placeholder, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? placeholder : asOneLine(value);
  });
}

/**
 * Delivery by a person: an operations task in the product's queue, due after its SLA. The item
 * waits in `manual_pending` until ops completes the task: the marketplace never claims a delivery a
 * person has not confirmed.
 */
export function createManualFulfillmentAdapter(deps: { tasks: OpsTaskRepository; clock: Clock }): FulfillmentAdapter {
  const taskOf = async (context: FulfillmentContext) => {
    const id = context.record.external_reference_id;
    const task = id ? await deps.tasks.find(id) : undefined;
    if (!task) throw new Error(`fulfillment ${context.record.id} has no operations task`);
    return task;
  };

  return {
    driver: "manual_fulfillment",

    async fulfill(context) {
      const config = driverConfig(context.product, "manual_fulfillment");
      // An open task for the record is returned as it is: a rerun neither duplicates it nor moves its due time.
      const task = await deps.tasks.open({
        fulfillment_record_id: context.record.id,
        kind: "manual_fulfillment",
        queue_id: config.queue_id,
        instructions: renderInstructions(config.instructions_template, context),
        due_at: new Date(deps.clock().getTime() + config.sla_hours * HOUR_MS),
      });
      return {
        status: "manual_pending",
        external_reference_id: task.id,
        snapshot: { ops_task: { id: task.id, queue_id: task.queue_id, due_at: task.due_at.toISOString() } },
      };
    },

    async completeTask(_context, task, result) {
      return {
        external_reference_id: task.id,
        external_workspace_url: httpUrlOrNull(result.url),
        external_status: "completed",
      };
    },

    syncStatus: async (context) => ({ external_status: (await taskOf(context)).status }),

    // Nothing runs that could be paused: the delivered work stays with the customer.
    suspend: async () => ({ external_status: "suspended" }),

    async cancel(context) {
      await deps.tasks.cancelFor(context.record.id);
      return { external_status: "cancelled" };
    },
  };
}
