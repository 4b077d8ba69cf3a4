import type { SimClock } from "../clock.ts";
import type { GatewayName } from "./webhook-deliverer.ts";

/** A price the portal offers to switch a subscription to (the account's own prices of its product). */
export interface PortalPlan {
  readonly price: string;
  readonly label: string;
}

/** A subscription as the portal lists it. */
export interface PortalSubscription {
  readonly id: string;
  readonly status: string;
  readonly description: string;
  /** The prices it can switch to here, billed at once with the gateway's proration. */
  readonly plans: readonly PortalPlan[];
}

export interface PortalSession {
  readonly id: string;
  readonly customer: string;
  /** The subscriptions the session is for; null: every subscription of the customer. */
  readonly subscriptions: readonly string[] | null;
  readonly returnUrl: string | null;
  readonly createdAt: number;
}

export interface PortalView {
  readonly gateway: GatewayName;
  readonly session: string;
  readonly subscriptions: readonly PortalSubscription[];
  readonly returnUrl: string | null;
  /** The last four digits of the card on file, once one was entered here. */
  readonly cardLast4: string | null;
}

export type CardOutcome =
  | { readonly outcome: "updated"; readonly recovered: readonly string[]; readonly view: PortalView }
  | { readonly outcome: "declined" | "invalid"; readonly view: PortalView }
  | { readonly outcome: "not_found" };

export type SwitchOutcome =
  | { readonly outcome: "switched" | "not_offered"; readonly view: PortalView }
  | { readonly outcome: "not_found" };

/** The card number both gateways' test docs name for a generic decline. */
export const DECLINED_CARD = "4000000000000002";

/** Links to a portal session work for this long, like the gateways' short-lived session links. */
const SESSION_LIFETIME_MS = 60 * 60 * 1000;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The customer portal both sandboxes serve: a session is made through the gateway's API, its link
 * opens a page listing the customer's subscriptions, and a card entered there becomes the
 * customer's card. As at both gateways, a past-due subscription's unpaid renewal is then collected
 * with it at once (`recover`), and the usual renewal events follow.
 */
export function createCustomerPortal(deps: {
  readonly gateway: GatewayName;
  readonly clock: SimClock;
  readonly newId: () => string;
  /** The customer's subscriptions, for the page. */
  readonly subscriptionsOf: (customer: string) => readonly PortalSubscription[];
  /** Collects a past-due subscription's unpaid renewal with the new card; false when nothing was due. */
  readonly recover: (subscription: string) => boolean;
  /** Moves a subscription to one of its offered prices, billed at once, with the gateway's events. */
  readonly switchPlan: (subscription: string, price: string) => void;
}) {
  let sessions = new Map<string, PortalSession>();
  let cards = new Map<string, string>();

  function live(id: string): PortalSession | undefined {
    const session = sessions.get(id);
    if (!session || deps.clock.now().getTime() - session.createdAt > SESSION_LIFETIME_MS) return undefined;
    return session;
  }

  function view(session: PortalSession): PortalView {
    const all = deps.subscriptionsOf(session.customer);
    const listed = session.subscriptions;
    return {
      gateway: deps.gateway,
      session: session.id,
      subscriptions: listed ? all.filter((each) => listed.includes(each.id)) : all,
      returnUrl: session.returnUrl,
      cardLast4: cards.get(session.customer)?.slice(-4) ?? null,
    };
  }

  return {
    open(input: Omit<PortalSession, "id" | "createdAt">): PortalSession {
      const session = { ...input, id: deps.newId(), createdAt: deps.clock.now().getTime() };
      sessions.set(session.id, session);
      return session;
    },
    /** Undefined for an unknown session or one whose link has expired. */
    view(id: string): PortalView | undefined {
      const session = live(id);
      return session && view(session);
    },
    enterCard(id: string, number: string): CardOutcome {
      const session = live(id);
      if (!session) return { outcome: "not_found" };
      const digits = number.replace(/[\s-]/g, "");
      if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) return { outcome: "invalid", view: view(session) };
      if (digits === DECLINED_CARD) return { outcome: "declined", view: view(session) };
      cards = new Map(cards).set(session.customer, digits);
      const recovered = view(session)
        .subscriptions.filter((each) => each.status === "past_due")
        .map((each) => each.id)
        .filter((each) => deps.recover(each));
      return { outcome: "updated", recovered, view: view(session) };
    },
    /** The customer switches a subscription of the session to a price the page offered. */
    switchPlan(id: string, subscription: string, price: string): SwitchOutcome {
      const session = live(id);
      if (!session) return { outcome: "not_found" };
      const listed = view(session).subscriptions.find((each) => each.id === subscription);
      if (!listed?.plans.some((plan) => plan.price === price)) return { outcome: "not_offered", view: view(session) };
      deps.switchPlan(subscription, price);
      return { outcome: "switched", view: view(session) };
    },
    clear() {
      sessions = new Map();
      cards = new Map();
    },
  };
}

export type CustomerPortal = ReturnType<typeof createCustomerPortal>;
