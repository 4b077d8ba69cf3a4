import { describe, expect, test } from "bun:test";
import { fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import { endGatewaySubscriptionJob } from "../../../application/payments/jobs.ts";
import type { EventContext } from "../../../application/payments/receive-payment.ts";
import {
  makeRefundAndDisputeReceivers,
  settleAfterRefund,
} from "../../../application/payments/refunds-and-disputes.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import type { OrderStatus } from "../../../domain/orders/order-status.ts";
import type { Payment } from "../../../domain/payments/payment.ts";
import { aDisputeEvent, aRefundedEvent } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const contextOf = (payment: Pick<Payment, "payment_id">): EventContext => ({
  environment: "sandbox",
  payment: { payment_id: payment.payment_id, payment_intent_id: null, charge_id: null, invoice_id: null },
});

function setUp(status: OrderStatus = "paid") {
  const uow = createInMemoryUnitOfWork();
  const log = createRecordingLog();
  const moneyBack = makeRefundAndDisputeReceivers({ log, fulfillment: orderFulfillment });
  const { order, items } = uow.orders.add({ status });
  const record = uow.fulfillments.add({ order_id: order.id, order_item_id: items[0]?.id, status: "active" });
  const payment = uow.payments.add({ order_id: order.id, payment_id: "pi_1", amount: 4900 });
  const refund = (event: Parameters<typeof moneyBack.refunded>[0]) =>
    uow.run((scope) => moneyBack.refunded(event, contextOf(event.payment as Payment), scope));
  const dispute = (event: Parameters<typeof moneyBack.disputed>[0]) =>
    uow.run((scope) => moneyBack.disputed(event, contextOf(event.payment as Payment), scope));
  const actions = () =>
    uow.jobs.ofKind(fulfillmentActionJob.kind).map((job) => (job.payload as { action: string }).action);
  return { uow, log, order, items, record, payment, refund, dispute, actions };
}

describe("a refund", () => {
  test("of everything refunds the order, cancels its deliveries and ends its billing", async () => {
    const { uow, order, items, payment, refund, actions } = setUp();
    const subscription = uow.subscriptions.add({
      order_id: order.id,
      order_item_id: items[0]?.id,
      gateway_subscription_id: "sub_1",
    });
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" } }));
    expect(uow.payments.get(payment.id).refunded_amount).toBe(4900);
    expect(uow.orders.get(order.id).status).toBe("refunded");
    expect(actions()).toEqual(["cancel"]);
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toMatchObject([
      { payload: { subscription_id: subscription.id, reason: "payment refunded" } },
    ]);
  });

  test("of part of the payment partly refunds the order and leaves its deliveries alone", async () => {
    const { uow, order, refund, actions } = setUp();
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000 }));
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
    expect(actions()).toEqual([]);
  });

  test("told twice is counted once", async () => {
    const { uow, order, payment, refund, actions } = setUp();
    const event = aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000, refund_id: "re_1" });
    await refund(event);
    await refund({ ...event, event_id: "evt_again" });
    expect(uow.payments.get(payment.id).refunded_amount).toBe(1000);
    expect(uow.payments.refunds()).toHaveLength(1);
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
    expect(actions()).toEqual([]);
  });

  test("a running total raises the refunded amount to it instead of adding up", async () => {
    const { uow, order, payment, refund } = setUp();
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000, cumulative: true, refund_id: null }));
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 4900, cumulative: true, refund_id: null }));
    expect(uow.payments.get(payment.id).refunded_amount).toBe(4900);
    expect(uow.orders.get(order.id).status).toBe("refunded");
  });

  test("of a second payment leaves the order partly refunded while the first is kept", async () => {
    const { uow, order, refund } = setUp();
    uow.payments.add({ order_id: order.id, payment_id: "pi_2", amount: 900 });
    await refund(aRefundedEvent({ payment: { payment_id: "pi_2" }, amount: 900 }));
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
  });

  test("the refund status is decided once: a repeated full refund cancels nothing twice", async () => {
    const { uow, order, refund, actions } = setUp();
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, refund_id: "re_1" }));
    await uow.run((scope) =>
      settleAfterRefund(scope, order.id, { log: createRecordingLog(), fulfillment: orderFulfillment }),
    );
    expect(uow.orders.get(order.id).status).toBe("refunded");
    expect(actions()).toEqual(["cancel"]);
  });

  test("that the state machine refuses still counts in the ledger and leaves the status", async () => {
    const { uow, order, payment, refund, log, actions } = setUp("charged_back");
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000 }));
    expect(uow.payments.get(payment.id).refunded_amount).toBe(1000);
    expect(uow.orders.get(order.id).status).toBe("charged_back");
    expect(log.messages()).toContain("order status left as it is");
    expect(actions()).toEqual([]);
  });

  test("matching no payment puts the named order before a person", async () => {
    const { uow, order, refund } = setUp();
    await refund(aRefundedEvent({ payment: { payment_id: "pi_unknown" }, order_id: order.id }));
    expect(uow.orders.get(order.id)).toMatchObject({ status: "paid", needs_attention: true });
    expect(uow.orders.get(order.id).attention_reason).toContain("matches no payment in the ledger");
  });

  test("matching no payment and naming no known order fails the job for good", async () => {
    const { refund } = setUp();
    await expect(refund(aRefundedEvent({ payment: { payment_id: "pi_unknown" } }))).rejects.toBeInstanceOf(
      PermanentJobFailure,
    );
  });

  test("finds its payment by any id the gateway knows it by, and links the ids it learned", async () => {
    const { uow, order, payment } = setUp();
    uow.payments.add({ ...payment, payment_id: "ch_1", charge_id: "ch_1" });
    const learned = { payment_id: "pi_7", payment_intent_id: "pi_7", charge_id: "ch_1", invoice_id: null };
    await uow.run((scope) =>
      makeRefundAndDisputeReceivers({ log: createRecordingLog(), fulfillment: orderFulfillment }).refunded(
        aRefundedEvent({ payment: { payment_id: null, charge_id: "ch_1" } }),
        { environment: "sandbox", payment: learned },
        scope,
      ),
    );
    expect(uow.payments.get(payment.id)).toMatchObject({ refunded_amount: 4900, payment_intent_id: "pi_7" });
    expect(uow.orders.get(order.id).status).toBe("refunded");
  });
});

describe("a dispute", () => {
  const opened = aDisputeEvent("dispute_opened", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" });

  test("opened marks the order disputed, puts it before a person and suspends its deliveries", async () => {
    const { uow, order, dispute, actions } = setUp();
    await dispute(opened);
    expect(uow.orders.get(order.id)).toMatchObject({ status: "disputed", needs_attention: true });
    expect(actions()).toEqual(["suspend"]);
  });

  test("opened twice changes nothing the second time", async () => {
    const { uow, order, dispute, actions } = setUp();
    await dispute(opened);
    const reason = uow.orders.get(order.id).attention_reason;
    await dispute({ ...opened, event_id: "evt_again" });
    expect(uow.orders.get(order.id).attention_reason).toBe(reason);
    expect(actions()).toEqual(["suspend"]);
  });

  test("won gives the order back as paid and resumes its deliveries", async () => {
    const { uow, order, dispute, actions } = setUp();
    await dispute(opened);
    await dispute(aDisputeEvent("dispute_won", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" }));
    expect(uow.orders.get(order.id).status).toBe("paid");
    expect(actions()).toEqual(["suspend", "resume"]);
  });

  test("won after a partial refund gives the order back as partly refunded", async () => {
    const { uow, order, refund, dispute } = setUp();
    await refund(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000 }));
    await dispute(opened);
    await dispute(aDisputeEvent("dispute_won", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" }));
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
  });

  test("lost charges the order back, takes the money off the payment, cancels and ends billing", async () => {
    const { uow, order, items, payment, dispute, actions } = setUp();
    uow.subscriptions.add({ order_id: order.id, order_item_id: items[0]?.id, gateway_subscription_id: "sub_1" });
    await dispute(opened);
    await dispute(aDisputeEvent("dispute_lost", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" }));
    expect(uow.orders.get(order.id).status).toBe("charged_back");
    expect(uow.payments.get(payment.id).charged_back_amount).toBe(4900);
    expect(actions()).toEqual(["suspend", "cancel"]);
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toHaveLength(1);
  });

  test("settled is final: a later outcome changes nothing", async () => {
    const { uow, order, dispute, actions } = setUp();
    await dispute(opened);
    await dispute(aDisputeEvent("dispute_lost", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" }));
    await dispute(aDisputeEvent("dispute_won", { payment: { payment_id: "pi_1" }, dispute_id: "dp_1" }));
    expect(uow.orders.get(order.id).status).toBe("charged_back");
    expect(actions()).toEqual(["suspend", "cancel"]);
  });

  test("matching no payment and naming no known order fails the job for good", async () => {
    const { dispute } = setUp();
    await expect(
      dispute(aDisputeEvent("dispute_opened", { payment: { payment_id: "pi_unknown" }, dispute_id: "dp_9" })),
    ).rejects.toBeInstanceOf(PermanentJobFailure);
  });
});
