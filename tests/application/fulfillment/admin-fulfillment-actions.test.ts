import { describe, expect, test } from "bun:test";
import { makeAdminFulfillmentActions } from "../../../application/fulfillment/admin-fulfillment-actions.ts";
import type { FulfillmentAction } from "../../../application/fulfillment/ports.ts";
import { endSubscriptionBilling } from "../../../application/payments/end-gateway-subscription.ts";
import { endGatewaySubscriptionJob } from "../../../application/payments/jobs.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";
import { FULFILLMENT_GUARDS } from "../../../domain/fulfillment/status-guards.ts";
import { aBilledOrder } from "../../support/builders/billed-order.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

/** The admin's action as the signed-in admin `ADMIN` takes it. */
function adminSetUp() {
  const uow = createInMemoryUnitOfWork();
  const log = createRecordingLog();
  const actors: string[] = [];
  /** The fulfillment use case's act: moves the record as asked, noting who asked. */
  const act = async (id: string, action: FulfillmentAction, _reason: string, actorId: string) => {
    actors.push(actorId);
    if (action !== "cancel") return uow.fulfillments.get(id);
    const moved = await uow.fulfillments.transition(id, FULFILLMENT_GUARDS.cancel, { status: "cancelled" });
    return moved ?? uow.fulfillments.get(id);
  };
  const adminAct = makeAdminFulfillmentActions({ act, endBilling: endSubscriptionBilling, uow, log });
  return {
    uow,
    log,
    actors,
    adminAct: (id: string, action: FulfillmentAction, reason: string): Promise<FulfillmentRecord> =>
      adminAct(id, action, reason, ADMIN),
  };
}

describe("an admin acting on a delivery", () => {
  test("cancelling it ends its gateway subscription by a job", async () => {
    const { uow, actors, adminAct } = adminSetUp();
    const [billed] = aBilledOrder(uow);
    if (!billed) throw new Error("no delivery");
    await adminAct(billed.record.id, "cancel", "customer asked");
    expect(actors).toEqual([ADMIN]);
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toEqual([
      {
        kind: endGatewaySubscriptionJob.kind,
        payload: { subscription_id: billed.subscription.id, reason: "customer asked" },
        dedupeKey: `end-subscription:${billed.subscription.id}`,
      },
    ]);
  });

  test("anything but cancelling leaves the billing alone", async () => {
    const { uow, adminAct } = adminSetUp();
    const [billed] = aBilledOrder(uow);
    await adminAct(billed?.record.id ?? "", "suspend", "abuse");
    expect(uow.jobs.all()).toEqual([]);
  });

  test("a subscription billing another live delivery stays until the last of them is cancelled", async () => {
    const { uow, log, adminAct } = adminSetUp();
    const [first, second] = aBilledOrder(uow, 2);
    await adminAct(first?.record.id ?? "", "cancel", "one seat less");
    expect(uow.jobs.all()).toEqual([]);
    expect(log.messages()).toContain(
      "the gateway subscription still bills other deliveries; it stays until they are cancelled",
    );
    await adminAct(second?.record.id ?? "", "cancel", "the last seat");
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toHaveLength(1);
  });

  test("a subscription already cancelled, or never at a gateway, queues nothing", async () => {
    const { uow, adminAct } = adminSetUp();
    const [cancelled] = aBilledOrder(uow);
    await uow.subscriptions.update(cancelled?.subscription.id ?? "", { status: "cancelled" });
    await adminAct(cancelled?.record.id ?? "", "cancel", "again");
    const [local] = aBilledOrder(uow);
    uow.subscriptions.add({ ...local?.subscription, gateway_subscription_id: null });
    await adminAct(local?.record.id ?? "", "cancel", "local only");
    expect(uow.jobs.all()).toEqual([]);
  });
});
