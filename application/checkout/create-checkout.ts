import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { CustomerNotFound, GuestCheckoutRefused, OrderExpiredAtCheckout } from "../../domain/checkout/errors.ts";
import { type GuestBuyer, validateGuestBuyer } from "../../domain/checkout/guest-buyer.ts";
import type { AppliedDiscount } from "../../domain/discounts/apply.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import { orderMetadata } from "../../domain/orders/order.ts";
import type { CheckoutDiscount, GatewayProductRefs, GatewaySettingsSource, PaymentGateway } from "../payments/ports.ts";
import {
  type CalculateCheckoutDeps,
  type CalculatedCheckout,
  type CheckoutRequest,
  makeCalculateCheckout,
} from "./calculate-checkout.ts";
import type { CheckoutUrls, CustomerDirectory, GuestCustomers, OrderAccess, OrderRepository } from "./ports.ts";

export interface CheckoutResponse {
  readonly order_id: string;
  readonly total: number;
  readonly due_today: number;
  readonly discount_total: number;
  readonly discount: AppliedDiscount | null;
  readonly currency: string;
  readonly payment_gateway: PaymentGatewayName;
  readonly checkout: { readonly url: string; readonly session_id: string; readonly client_key?: string };
  /**
   * Where the order can be followed; a guest's carries the order's signed access, so a guest's
   * replayed answer leaves it out (whoever knows an address and a key must not read the order).
   */
  readonly order_status_url?: string;
}

/** What a gateway needs of an applied code: its terms, without the amounts this checkout works out. */
function gatewayTerms(applied: AppliedDiscount, currency: string): CheckoutDiscount {
  const { total: _, renewal_amount: __, renewal_full_amount: ___, ...terms } = applied;
  return { ...terms, currency: applied.type === "fixed" ? currency : null };
}

/** A signed-in customer, or a guest who gives an address. */
export type Buyer = { readonly customerId: string } | { readonly guest: GuestBuyer };

export interface CreateCheckoutDeps extends CalculateCheckoutDeps {
  readonly orders: OrderRepository;
  readonly customers: CustomerDirectory;
  readonly guests: GuestCustomers;
  readonly access: OrderAccess;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly settings: GatewaySettingsSource;
  readonly refs: GatewayProductRefs;
  readonly urls: CheckoutUrls;
}

/** What an order opened for a purpose of its own (a license upgrade) adds to a checkout. */
export interface OrderLink {
  readonly upgrade_of: { readonly order_id: string; readonly license_id: string };
  /** Records what the order is for, after it is created and before the gateway is asked. */
  readonly record: (created: { order: Order; items: readonly OrderItem[] }) => Promise<void>;
}

/**
 * Creates the order with its priced items in one transaction, then opens the gateway's checkout.
 * A gateway failure leaves the order `checkout_failed`.
 */
export function makeOpenCheckout(deps: Omit<CreateCheckoutDeps, "guests">) {
  return async function open(
    customer: { id: string; email: string; name: string },
    priced: CalculatedCheckout,
    guest: boolean,
    link?: OrderLink,
  ): Promise<CheckoutResponse> {
    const customerId = customer.id;
    const gateway = priced.payment_gateway;
    const environment = await deps.settings.activeEnvironment(gateway);
    const taxBehavior = await deps.settings.taxBehavior(gateway);
    const metadata = canonicalJson(
      orderMetadata({
        payment_gateway: gateway,
        gateway_environment: environment,
        items: priced.items,
        ...(link ? { upgrade_of: link.upgrade_of } : {}),
      }),
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
      if (link) await link.record({ order, items });
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
      const access = guest ? await deps.access.sign(order.id) : undefined;
      const session = await deps.gateways[gateway].createCheckoutSession({
        order_id: order.id,
        currency: order.currency,
        lines,
        customer,
        success_url: deps.urls.success(order.id, access),
        cancel_url: deps.urls.cancel(order.id, access),
        tax_behavior: order.tax_behavior,
        ...(priced.discount ? { discount: gatewayTerms(priced.discount, order.currency) } : {}),
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
        discount_total: priced.discount_total,
        discount: priced.discount,
        currency: order.currency,
        payment_gateway: gateway,
        checkout: {
          url: session.url,
          session_id: session.session_id,
          ...(session.client_key ? { client_key: session.client_key } : {}),
        },
        order_status_url: deps.urls.status(order.id, access),
      };
    } catch (error) {
      await deps.orders.markCheckoutFailed(order.id, error instanceof Error ? error.message : "checkout failed");
      throw error;
    }
  };
}

/**
 * Creates the order with its items in one transaction, then opens the gateway's checkout. A
 * gateway failure leaves the order `checkout_failed` (the HTTP layer frees the request's
 * Idempotency-Key for a retry).
 */
export function makeCreateCheckout(deps: CreateCheckoutDeps) {
  const calculate = makeCalculateCheckout(deps);
  const open = makeOpenCheckout(deps);
  const create = async (
    customer: { id: string; email: string; name: string },
    request: CheckoutRequest,
    guest: boolean,
  ) => open(customer, await calculate(request, { customerId: customer.id }), guest);

  /**
   * A guest's order goes to the address's account when the account proved the address, else to its
   * guest record; the answer is the same either way, and says nothing of the account.
   */
  return async function createCheckout(buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse> {
    if ("customerId" in buyer) {
      const customer = await deps.customers.find(buyer.customerId);
      if (!customer) throw new CustomerNotFound();
      return create(customer, request, false);
    }
    const guest = validateGuestBuyer(buyer.guest);
    // A cart refused now makes no guest record.
    await calculate(request);
    const asGuest = async () => {
      const customer = await deps.guests.forAddress(guest.email, guest.name);
      if (!customer) throw new GuestCheckoutRefused();
      return create(customer, request, true);
    };
    // The guest record may fold into an account that proves the address meanwhile: once more, to it.
    return asGuest().catch((error: unknown) => {
      if (error instanceof CustomerNotFound) return asGuest();
      throw error;
    });
  };
}
