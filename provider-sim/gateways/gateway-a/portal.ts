import type { SimClock } from "../../clock.ts";
import { createCustomerPortal, type PortalPlan } from "../customer-portal.ts";
import { newGatewayId } from "../ids.ts";
import type { GatewayABilling } from "./billing.ts";
import type { GatewayACustomers } from "./customers.ts";
import { PaddleError } from "./errors.ts";

/** At most this many subscriptions per portal session, as Paddle allows. */
const MAX_SUBSCRIPTIONS = 25;

/** `{subscription_ids?}`, Paddle's body for a portal session; anything else is refused. */
function subscriptionIdsOf(body: Readonly<Record<string, unknown>>): string[] {
  const unknown = Object.keys(body).filter((key) => key !== "subscription_ids");
  if (unknown.length > 0) throw PaddleError.unknownFields(unknown);
  const ids = body.subscription_ids ?? [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) {
    throw PaddleError.invalidField("subscription_ids", "must be a list of subscription ids");
  }
  if (ids.length > MAX_SUBSCRIPTIONS) {
    throw PaddleError.invalidField("subscription_ids", `may hold at most ${MAX_SUBSCRIPTIONS} ids`);
  }
  return ids as string[];
}

/**
 * The gateway_a (Paddle) customer portal: `POST /customers/{id}/portal-sessions` makes a session
 * with an overview link and, for each subscription named, its cancel and update-payment-method
 * links; each opens the portal page.
 */
export function createGatewayAPortal(deps: {
  readonly billing: GatewayABilling;
  readonly customers: GatewayACustomers;
  readonly clock: SimClock;
  readonly publicUrl: string;
  readonly recover: (subscription: string) => boolean;
  /** The account's prices a subscription can switch to in the portal, and the switch itself. */
  readonly plansOf: (subscription: string) => readonly PortalPlan[];
  readonly switchPlan: (subscription: string, price: string) => void;
}) {
  const portal = createCustomerPortal({
    gateway: "gateway_a",
    clock: deps.clock,
    newId: () => newGatewayId("cpls"),
    subscriptionsOf: (customer) =>
      deps.billing.subscriptionsOf(customer).map((each) => ({
        id: each.id,
        status: each.status,
        description: each.items.map((item) => item.product.name).join(", "),
        plans: each.status === "active" ? deps.plansOf(each.id) : [],
      })),
    recover: deps.recover,
    switchPlan: deps.switchPlan,
  });

  return {
    portal,
    createSession(customerId: string, body: Readonly<Record<string, unknown>>) {
      const customer = deps.customers.customer(customerId);
      const ids = subscriptionIdsOf(body);
      const owned = new Set(deps.billing.subscriptionsOf(customer.id).map((each) => each.id));
      const stranger = ids.find((id) => !owned.has(id));
      if (stranger !== undefined) {
        throw PaddleError.invalidField("subscription_ids", `${stranger} is not a subscription of ${customer.id}`);
      }
      // A session naming subscriptions shows those; one naming none shows all of the customer's.
      const session = portal.open({
        customer: customer.id,
        subscriptions: ids.length > 0 ? ids : null,
        returnUrl: null,
      });
      const base = `${deps.publicUrl}/portal/gateway_a/${session.id}`;
      return {
        id: session.id,
        customer_id: customer.id,
        urls: {
          general: { overview: base },
          subscriptions: ids.map((id) => ({
            id,
            cancel_subscription: `${base}?subscription=${id}&action=cancel`,
            update_subscription_payment_method: `${base}?subscription=${id}&action=update_payment_method`,
          })),
        },
        created_at: new Date(session.createdAt).toISOString(),
      };
    },
  };
}
