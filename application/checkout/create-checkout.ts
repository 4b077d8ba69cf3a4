import { CustomerNotFound, GuestCheckoutRefused } from "../../domain/checkout/errors.ts";
import { type GuestBuyer, validateGuestBuyer } from "../../domain/checkout/guest-buyer.ts";
import { type CalculateCheckoutDeps, type CheckoutRequest, makeCalculateCheckout } from "./calculate-checkout.ts";
import { type CheckoutResponse, makeOpenCheckout, type OpenCheckoutDeps } from "./open-checkout.ts";
import type { CustomerDirectory, GuestCustomers } from "./ports.ts";

/** A signed-in customer, or a guest who gives an address. */
export type Buyer = { readonly customerId: string } | { readonly guest: GuestBuyer };

export interface CreateCheckoutDeps extends CalculateCheckoutDeps, OpenCheckoutDeps {
  readonly customers: CustomerDirectory;
  readonly guests: GuestCustomers;
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
