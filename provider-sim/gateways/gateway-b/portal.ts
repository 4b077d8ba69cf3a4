import type { SimClock } from "../../clock.ts";
import { createCustomerPortal, type PortalPlan } from "../customer-portal.ts";
import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import type { GatewayBBilling } from "./billing.ts";
import { StripeError } from "./errors.ts";
import { optionalHash, optionalString, rejectUnknown, requiredString } from "./params.ts";

/** The flows the sandbox's portal offers: the card form, or the portal's home page. */
const FLOWS = ["payment_method_update"] as const;

/** The sandbox's one portal configuration, as an account's default one. */
const CONFIGURATION = "bpc_sandbox_default";

/**
 * The gateway_b (Stripe) customer portal: `POST /v1/billing_portal/sessions` makes a
 * `billing_portal.session` for a customer, and its `url` opens the portal page.
 */
export function createGatewayBPortal(deps: {
  readonly billing: GatewayBBilling;
  readonly clock: SimClock;
  readonly publicUrl: string;
  readonly recover: (subscription: string) => boolean;
  /** The account's prices a subscription can switch to in the portal, and the switch itself. */
  readonly plansOf: (subscription: string) => readonly PortalPlan[];
  readonly switchPlan: (subscription: string, price: string) => void;
}) {
  const { subscriptions } = deps.billing;
  const portal = createCustomerPortal({
    gateway: "gateway_b",
    clock: deps.clock,
    newId: () => newGatewayId("bps"),
    subscriptionsOf: (customer) =>
      subscriptions.ofCustomer(customer).map((each) => ({
        id: each.subscription.id,
        status: each.subscription.status,
        description: each.lines.map((line) => line.product_name).join(", "),
        plans: each.subscription.status === "active" ? deps.plansOf(each.subscription.id) : [],
      })),
    recover: deps.recover,
    switchPlan: deps.switchPlan,
  });

  function flowOf(form: FormObject) {
    const flow = optionalHash(form.flow_data, "flow_data");
    if (flow === null) return null;
    const type = requiredString(flow.type, "flow_data[type]");
    if (!(FLOWS as readonly string[]).includes(type)) {
      throw StripeError.invalid("flow_data[type]", `the sandbox offers ${FLOWS.join(", ")}`);
    }
    return {
      type,
      after_completion: { type: "portal_homepage", hosted_confirmation: null, redirect: null },
      customer_update: null,
      subscription_cancel: null,
      subscription_pause: null,
      subscription_update: null,
      subscription_update_confirm: null,
    };
  }

  return {
    portal,
    createSession(form: FormObject) {
      rejectUnknown(form, ["customer", "return_url", "flow_data", "locale", "configuration"]);
      const customer = requiredString(form.customer, "customer");
      if (subscriptions.ofCustomer(customer).length === 0) throw StripeError.noSuch("customer", customer, "customer");
      const returnUrl = optionalString(form.return_url, "return_url");
      if (returnUrl !== null && !/^https?:\/\/[^\s]+$/i.test(returnUrl)) {
        throw StripeError.invalid("return_url", "Not a valid URL", "url_invalid");
      }
      const configuration = optionalString(form.configuration, "configuration");
      if (configuration !== null && configuration !== CONFIGURATION) {
        throw StripeError.noSuch("billing_portal.configuration", configuration, "configuration");
      }
      const flow = flowOf(form);
      const session = portal.open({ customer, subscriptions: null, returnUrl });
      return {
        id: session.id,
        object: "billing_portal.session" as const,
        configuration: CONFIGURATION,
        created: Math.floor(session.createdAt / 1000),
        customer,
        customer_account: null,
        flow,
        livemode: false,
        locale: optionalString(form.locale, "locale"),
        on_behalf_of: null,
        return_url: returnUrl,
        url: `${deps.publicUrl}/portal/gateway_b/${session.id}`,
      };
    },
  };
}
