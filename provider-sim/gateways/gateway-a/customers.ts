import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import { PaddleError } from "./errors.ts";
import type { PaddleCustomer } from "./model.ts";
import type { CustomerInput } from "./requests.ts";

export interface CustomerFilter {
  readonly ids?: readonly string[];
  readonly emails?: readonly string[];
  readonly status?: readonly string[];
}

export type GatewayACustomers = ReturnType<typeof createGatewayACustomers>;

/** The email a checkout's buyer types on the sandbox's hosted page when the transaction names no customer. */
export const SANDBOX_BUYER_EMAIL = "buyer@sandbox.example";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Customers of the gateway_a sandbox, in creation order; an email belongs to one customer, whatever its case. */
export function createGatewayACustomers(clock: SimClock) {
  const customers = new Map<string, PaddleCustomer>();

  function customer(id: string): PaddleCustomer {
    const found = customers.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  const byEmail = (email: string) => [...customers.values()].find((existing) => same(existing.email, email));

  function create(input: CustomerInput): PaddleCustomer {
    const existing = byEmail(input.email);
    if (existing) throw PaddleError.customerExists(existing.id);
    const now = clock.now().toISOString();
    const created: PaddleCustomer = {
      id: newGatewayId("ctm"),
      status: "active",
      marketing_consent: false,
      created_at: now,
      updated_at: now,
      import_meta: null,
      ...input,
    };
    customers.set(created.id, created);
    return created;
  }

  return {
    customer,
    create,
    /** The customer an email names, created when there is none (as Paddle Checkout does). */
    ensure: (email: string) => byEmail(email) ?? create({ email, name: null, custom_data: null, locale: "en" }),
    list: (filter: CustomerFilter) =>
      [...customers.values()].filter(
        (c) =>
          (!filter.ids || filter.ids.includes(c.id)) &&
          (!filter.emails || filter.emails.some((email) => same(email, c.email))) &&
          (!filter.status || filter.status.includes(c.status)),
      ),
    clear: () => customers.clear(),
  };
}
