import { t } from "elysia";
import type { RefundRecord } from "../../application/checkout/ports.ts";
import { MAX_QUANTITY } from "../../domain/checkout/checkout.ts";
import { ORDER_STATUSES } from "../../domain/orders/order-status.ts";
import { GATEWAY_ENVIRONMENTS } from "../../domain/payments/gateway-event.ts";
import { type DisputeStatus, type PaymentKind, TAX_BEHAVIORS } from "../../domain/payments/payment.ts";
import { Int } from "../../kit/schema-types.ts";
import {
  BillingIntervalSchema,
  DeliveryModelSchema,
  DriverSchema,
  GatewaySchema,
  PaymentTypeSchema,
  VariantSchema,
} from "./catalog-schemas.ts";
import { FulfillmentSchema } from "./fulfillment-schemas.ts";
import { named } from "./openapi-models.ts";
import { everyOf, oneOf, Time, Uuid } from "./shared-schemas.ts";

const Money = (description = "Minor units of the order's currency") => Int({ description });

export const OrderStatusSchema = named("OrderStatus", oneOf(ORDER_STATUSES));
export const GatewayEnvironmentSchema = named("GatewayEnvironment", oneOf(GATEWAY_ENVIRONMENTS));
export const TaxBehaviorSchema = named("TaxBehavior", oneOf(TAX_BEHAVIORS));
/** How many of one item a checkout may buy: the domain's cap. */
export const QuantitySchema = Int({ minimum: 1, maximum: MAX_QUANTITY });

const pricedItemFields = {
  product_id: t.String(),
  product_name: t.String(),
  variant: VariantSchema,
  payment_type: PaymentTypeSchema,
  license_type: t.Nullable(t.String()),
  billing_interval: t.Nullable(BillingIntervalSchema),
  unit_price: Money(),
  quantity: QuantitySchema,
  amount: Money("unit_price x quantity"),
  trial_days: t.Nullable(Int()),
  due_today: Money("What is charged at checkout: nothing for an item in its trial"),
  discount: Money("This line's share of what the discount code takes off the first payment"),
  delivery_model: DeliveryModelSchema,
  fulfillment_driver: DriverSchema,
  options: t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean()])),
};

/** One line of a checkout, priced. */
export const PricedItemSchema = named("PricedItem", t.Object(pricedItemFields));

export const OrderItemSchema = named("OrderItem", t.Object({ id: Uuid, ...pricedItemFields }));

export const OrderSchema = named(
  "Order",
  t.Object({
    id: Uuid,
    customer_id: Uuid,
    status: OrderStatusSchema,
    currency: t.String(),
    subtotal: Money(),
    total: Money(),
    due_today: Money(),
    discount_code: t.Nullable(t.String({ description: "The discount code the order was placed with" })),
    discount_total: Money("What the discount code took off the first payment"),
    discount_payments: t.Nullable(
      Int({ description: "Payments the code lowers, the first included; null with a code: every one" }),
    ),
    payment_gateway: GatewaySchema,
    gateway_environment: GatewayEnvironmentSchema,
    metadata: t.Record(t.String(), t.Unknown(), { description: "Gateway, environment and each item's choices" }),
    checkout: t.Nullable(t.Object({ session_id: t.String(), url: t.Nullable(t.String()) })),
    flagged_reason: t.Nullable(t.String({ description: "Why the checkout could not be opened" })),
    created_at: Time,
    updated_at: Time,
  }),
);

export const PaymentSchema = named(
  "Payment",
  t.Object({
    id: Uuid,
    order_id: Uuid,
    gateway: GatewaySchema,
    payment_id: t.String({ description: "The gateway's id that refunds are made against" }),
    kind: everyOf<PaymentKind>()(["initial", "renewal", "proration"]),
    amount: Money(),
    tax: Money(),
    discount: Money("What the gateway took off this payment for a discount code"),
    currency: t.String(),
    refunded_amount: Money(),
    charged_back_amount: Money(),
    invoice_id: t.Nullable(t.String()),
    charge_id: t.Nullable(t.String()),
    payment_intent_id: t.Nullable(t.String()),
    created_at: Time,
  }),
);

export const RefundSchema = named(
  "Refund",
  t.Object({
    id: Uuid,
    payment_id: Uuid,
    gateway_refund_id: t.String(),
    amount: Money(),
    status: everyOf<RefundRecord["status"]>()(["succeeded", "pending", "failed"]),
    created_at: Time,
  }),
);

export const DisputeSchema = named(
  "Dispute",
  t.Object({
    id: Uuid,
    payment_id: Uuid,
    gateway: GatewaySchema,
    gateway_dispute_id: t.String(),
    amount: Money(),
    currency: t.String(),
    status: everyOf<DisputeStatus>()(["open", "won", "lost"]),
    created_at: Time,
    updated_at: Time,
  }),
);

/** One of my orders: each item with its delivery (null until the payment is in). */
/** An item's subscription as it is now: its plan after any change, and one waiting for the period end. */
export const OrderSubscriptionSchema = named(
  "OrderSubscription",
  t.Object({
    order_item_id: Uuid,
    subscription_id: Uuid,
    status: t.String(),
    billing_interval: BillingIntervalSchema,
    current_period_end: t.Nullable(Time),
    pending_interval: t.Nullable(BillingIntervalSchema),
    pending_at: t.Nullable(Time),
  }),
);

export const OrderDetailsSchema = named(
  "OrderDetails",
  t.Object({
    ...OrderSchema.properties,
    items: t.Array(
      named(
        "OrderItemWithFulfillment",
        t.Object({ ...OrderItemSchema.properties, fulfillment: t.Nullable(FulfillmentSchema) }),
      ),
    ),
    payments: t.Array(PaymentSchema),
    refunds: t.Array(RefundSchema),
    subscriptions: t.Array(OrderSubscriptionSchema),
  }),
);

const adminFields = {
  needs_attention: t.Boolean({ description: "The order's money needs a person; it is not delivered meanwhile" }),
  attention_reason: t.Nullable(t.String()),
  tax_behavior: TaxBehaviorSchema,
};

export const AdminOrderSchema = named("AdminOrder", t.Object({ ...OrderSchema.properties, ...adminFields }));

/** An order as its signed status link shows it to a guest: the order without its customer. */
export const GuestOrderDetailsSchema = named(
  "GuestOrderDetails",
  t.Object(Object.fromEntries(Object.entries(OrderDetailsSchema.properties).filter(([key]) => key !== "customer_id"))),
);

export const AdminOrderDetailsSchema = named(
  "AdminOrderDetails",
  t.Object({
    ...AdminOrderSchema.properties,
    items: t.Array(OrderItemSchema),
    payments: t.Array(PaymentSchema),
    refunds: t.Array(RefundSchema),
    disputes: t.Array(DisputeSchema),
    subscriptions: t.Array(OrderSubscriptionSchema),
  }),
);
