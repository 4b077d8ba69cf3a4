import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { CustomerNotFound, OrderExpiredAtCheckout } from "../../domain/checkout/errors.ts";
import { orderMetadata } from "../../domain/orders/order.ts";
import type { GatewayProductRefs, GatewaySettingsSource, PaymentGateway } from "../payments/ports.ts";
import { type IdempotentAnswer, runIdempotently } from "../shared/idempotent-request.ts";
import { type CalculateCheckoutDeps, type CheckoutRequest, makeCalculateCheckout } from "./calculate-checkout.ts";
import type { CheckoutUrls, CustomerDirectory, IdempotencyStore, OrderRepository } from "./ports.ts";

export interface CheckoutResponse {
  readonly order_id: string;
  readonly total: number;
  readonly due_today: number;
  readonly currency: string;
  readonly payment_gateway: PaymentGatewayName;
  readonly checkout: { readonly url: string; readonly session_id: string; readonly client_key?: string };
}

export interface CreateCheckoutDeps extends CalculateCheckoutDeps {
  readonly orders: OrderRepository;
  readonly idempotency: IdempotencyStore;
  readonly customers: CustomerDirectory;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly settings: GatewaySettingsSource;
  readonly refs: GatewayProductRefs;
  readonly urls: CheckoutUrls;
}

/**
 * Creates the order with its items in one transaction, then opens the gateway's checkout. A
 * gateway failure leaves the order `checkout_failed` and the idempotency key free for a retry.
 */
export function makeCreateCheckout(deps: CreateCheckoutDeps) {
  const calculate = makeCalculateCheckout(deps);

  async function create(customerId: string, request: CheckoutRequest): Promise<CheckoutResponse> {
    const priced = await calculate(request);
    const customer = await deps.customers.find(customerId);
    if (!customer) throw new CustomerNotFound();
    const gateway = priced.payment_gateway;
    const environment = await deps.settings.activeEnvironment(gateway);
    const taxBehavior = await deps.settings.taxBehavior(gateway);
    const metadata = canonicalJson(
      orderMetadata({ payment_gateway: gateway, gateway_environment: environment, items: priced.items }),
    );
    const { order, items } = await deps.orders.create({
      customer_id: customerId,
      payment_gateway: gateway,
      gateway_environment: environment,
      tax_behavior: taxBehavior,
      metadata,
      totals: priced,
    });
    try {
      const lines = await Promise.all(
        items.map(async (item) => {
          const refs = await deps.refs.list(item.product_id, gateway, environment);
          const price = refs.find((r) => r.slot === item.variant);
          const current =
            price &&
            price.amount === item.unit_price &&
            price.currency === order.currency &&
            price.tax_behavior === order.tax_behavior;
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
      const session = await deps.gateways[gateway].createCheckoutSession({
        order_id: order.id,
        currency: order.currency,
        lines,
        customer,
        success_url: deps.urls.success(order.id),
        cancel_url: deps.urls.cancel(order.id),
        tax_behavior: order.tax_behavior,
      });
      if ((await deps.orders.attachCheckout(order.id, session)).expired) {
        // The order expired while the gateway opened its session (a slow gateway and a short
        // CHECKOUT_EXPIRY_MINUTES): close the session at once. Should that fail, a payment through it
        // is still recorded and flags the order, as any payment after expiry does.
        await deps.gateways[gateway].expireCheckout(session.session_id).catch(() => undefined);
        throw new OrderExpiredAtCheckout();
      }
      return {
        order_id: order.id,
        total: order.total,
        due_today: order.due_today,
        currency: order.currency,
        payment_gateway: gateway,
        checkout: {
          url: session.url,
          session_id: session.session_id,
          ...(session.client_key ? { client_key: session.client_key } : {}),
        },
      };
    } catch (error) {
      await deps.orders.markCheckoutFailed(order.id, error instanceof Error ? error.message : "checkout failed");
      throw error;
    }
  }

  return async function createCheckout(
    customerId: string,
    request: CheckoutRequest,
    idempotencyKey?: string,
  ): Promise<IdempotentAnswer<CheckoutResponse>> {
    // Nothing was paid: a failed attempt leaves at most an unpaid order, so the key may be used again.
    return runIdempotently(deps.idempotency, customerId, idempotencyKey, request, async () => ({
      status: 201,
      body: await create(customerId, request),
    }));
  };
}
