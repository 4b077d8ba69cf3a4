import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { OrderExpiredAtCheckout } from "../../domain/checkout/errors.ts";
import type { AppliedDiscount } from "../../domain/discounts/apply.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import { orderMetadata } from "../../domain/orders/order.ts";
import type { GatewayBreakers } from "../payments/gateway-breaker-ports.ts";
import type {
  CheckoutDiscount,
  CheckoutSession,
  GatewayProductRefs,
  GatewaySettingsSource,
  PaymentGateway,
} from "../payments/ports.ts";
import { isGatewayOutage } from "../shared/errors.ts";
import type { CalculatedCheckout } from "./calculate-checkout.ts";
import { type GatewayEntry, pickGateways } from "./gateway-picker.ts";
import type { CheckoutUrls, GatewayBinding, OrderAccess, OrderRepository } from "./ports.ts";

export interface CheckoutResponse {
  readonly order_id: string;
  readonly total: number;
  readonly due_today: number;
  readonly discount_total: number;
  readonly discount: AppliedDiscount | null;
  readonly currency: string;
  /** The gateway the checkout opened at. */
  readonly payment_gateway: PaymentGatewayName;
  /** Whether an outage at the gateway first chosen sent the checkout to `payment_gateway`. */
  readonly failed_over: boolean;
  /** That first gateway, when it did; else null. */
  readonly failed_over_from: PaymentGatewayName | null;
  readonly checkout: { readonly url: string; readonly session_id: string; readonly client_key?: string };
  /**
   * Where the order can be followed; a guest's carries the order's signed access (a guest's key is
   * long enough to be random, so its replay may carry it: docs/decisions/idempotency-keys.md).
   */
  readonly order_status_url?: string;
}

/** What an order opened for a purpose of its own (a license upgrade) adds to a checkout. */
export interface OrderLink {
  readonly upgrade_of: { readonly order_id: string; readonly license_id: string };
  /** Records what the order is for, after it is created and before the gateway is asked. */
  readonly record: (created: { order: Order; items: readonly OrderItem[] }) => Promise<void>;
}

export interface OpenCheckoutDeps {
  readonly orders: OrderRepository;
  readonly access: OrderAccess;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly settings: GatewaySettingsSource;
  readonly refs: GatewayProductRefs;
  readonly urls: CheckoutUrls;
  readonly breakers: GatewayBreakers;
}

/** What a gateway needs of an applied code: its terms, without the amounts this checkout works out. */
function gatewayTerms(applied: AppliedDiscount, currency: string): CheckoutDiscount {
  const { total: _, renewal_amount: __, renewal_full_amount: ___, ...terms } = applied;
  return { ...terms, currency: applied.type === "fixed" ? currency : null };
}

/**
 * Creates the order with its priced items in one transaction, then opens the gateway's checkout.
 * An outage at a gateway the customer did not name moves the order to the next one that takes the
 * checkout (docs/decisions/gateway-failover.md); any other gateway failure leaves it
 * `checkout_failed`.
 */
export function makeOpenCheckout(deps: OpenCheckoutDeps) {
  async function bindingFor(
    entry: GatewayEntry,
    priced: CalculatedCheckout,
    link?: OrderLink,
  ): Promise<GatewayBinding> {
    return {
      payment_gateway: entry.gateway,
      gateway_environment: entry.environment,
      tax_behavior: await deps.settings.taxBehavior(entry.gateway),
      metadata: canonicalJson(
        orderMetadata({
          payment_gateway: entry.gateway,
          gateway_environment: entry.environment,
          items: priced.items,
          ...(link ? { upgrade_of: link.upgrade_of } : {}),
        }),
      ),
    };
  }

  async function sessionAt(
    binding: GatewayBinding,
    order: Order,
    items: readonly OrderItem[],
    customer: { id: string; email: string; name: string },
    priced: CalculatedCheckout,
    access: string | undefined,
  ): Promise<CheckoutSession> {
    const gateway = binding.payment_gateway;
    const lines = await Promise.all(
      items.map(async (item) => {
        const refs = await deps.refs.list(item.product_id, gateway, binding.gateway_environment);
        const price = refs.find((r) => r.slot === item.variant);
        const current =
          price &&
          price.amount === item.unit_price &&
          price.currency === order.currency &&
          price.tax_behavior === binding.tax_behavior;
        return {
          order_item_id: item.id,
          product_id: item.product_id,
          name: item.product_name,
          variant: item.variant,
          billing_interval: item.billing_interval,
          unit_amount: item.unit_price,
          quantity: item.quantity,
          trial_days: item.trial_days,
          gateway_price_id: current ? price.remote_id : null,
        };
      }),
    );
    return deps.gateways[gateway].createCheckoutSession({
      order_id: order.id,
      currency: order.currency,
      lines,
      customer,
      success_url: deps.urls.success(order.id, access),
      cancel_url: deps.urls.cancel(order.id, access),
      tax_behavior: binding.tax_behavior,
      ...(priced.discount ? { discount: gatewayTerms(priced.discount, order.currency) } : {}),
    });
  }

  return async function open(
    customer: { id: string; email: string; name: string },
    priced: CalculatedCheckout,
    guest: boolean,
    link?: OrderLink,
  ): Promise<CheckoutResponse> {
    const route = priced.route ?? { payment_gateway: priced.payment_gateway, named: true, usable: [] };
    const picker = pickGateways(deps, route);
    const first = await picker.next();
    if (!first) throw await picker.unavailable();
    let entry: GatewayEntry = first;
    let binding = await bindingFor(entry, priced, link);
    const { order, items } = await deps.orders
      .create({ customer_id: customer.id, ...binding, totals: priced })
      .catch(async (error: unknown) => {
        await first.pass.settled();
        throw error;
      });
    try {
      if (link) await link.record({ order, items });
      const access = guest ? await deps.access.sign(order.id) : undefined;
      let session: CheckoutSession | undefined;
      while (!session) {
        try {
          session = await sessionAt(binding, order, items, customer, priced, access);
          await entry.pass.succeeded();
        } catch (error) {
          // A refusal (4xx, our own validation) would be refused anywhere: it neither counts nor moves.
          if (!isGatewayOutage(error)) throw error;
          await entry.pass.failed();
          if (route.named) throw await picker.unavailable();
          const next = await picker.next();
          if (!next) throw error;
          entry = next;
          binding = await bindingFor(entry, priced, link);
          // Bound to the next gateway before it is asked: a late payment through the failed one's
          // session (one that opened after all) no longer matches the order and cannot pay it.
          if (!(await deps.orders.rebind(order.id, binding))) throw new OrderExpiredAtCheckout();
        }
      }
      if ((await deps.orders.attachCheckout(order.id, session)).expired) {
        // The order expired while the gateway opened its session (a slow gateway and a short
        // CHECKOUT_EXPIRY_MINUTES): close the session at once. Should that fail, a payment through it
        // is still recorded and flags the order, as any payment after expiry does.
        await deps.gateways[entry.gateway].expireCheckout(session.session_id).catch(() => undefined);
        throw new OrderExpiredAtCheckout();
      }
      const failedOver = entry.gateway !== route.payment_gateway;
      return {
        order_id: order.id,
        total: order.total,
        due_today: order.due_today,
        discount_total: priced.discount_total,
        discount: priced.discount,
        currency: order.currency,
        payment_gateway: entry.gateway,
        failed_over: failedOver,
        failed_over_from: failedOver ? route.payment_gateway : null,
        checkout: {
          url: session.url,
          session_id: session.session_id,
          ...(session.client_key ? { client_key: session.client_key } : {}),
        },
        order_status_url: deps.urls.status(order.id, access),
      };
    } catch (error) {
      // Unless the call's outcome was reported, a half-open trial this checkout held makes way for the next.
      await entry.pass.settled();
      await deps.orders.markCheckoutFailed(order.id, error instanceof Error ? error.message : "checkout failed");
      throw error;
    }
  };
}
