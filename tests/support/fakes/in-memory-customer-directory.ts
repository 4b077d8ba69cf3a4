import type { CustomerDirectory } from "../../../application/checkout/ports.ts";

type Customer = { id: string; email: string; name: string };

/** The customers checkout may bill; `add` registers one. */
export function createInMemoryCustomerDirectory(
  initial: readonly Customer[] = [],
): CustomerDirectory & { add(customer: Customer): void } {
  const customers = new Map(initial.map((customer) => [customer.id, customer]));
  return {
    find: async (customerId) => customers.get(customerId),
    add(customer) {
      customers.set(customer.id, customer);
    },
  };
}
