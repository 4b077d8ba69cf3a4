import type { GuestCustomers } from "../../../application/checkout/ports.ts";

type Customer = { id: string; email: string; name: string };

/**
 * Guest checkout's owners: an account given as `verifiedAccounts` keeps its address's orders,
 * any other address gets one guest record, made on first use. `records` lists the guest records.
 */
export function createInMemoryGuestCustomers(
  verifiedAccounts: readonly Customer[] = [],
): GuestCustomers & { records(): Customer[] } {
  const guests = new Map<string, Customer>();
  return {
    async forAddress(email, name) {
      const account = verifiedAccounts.find((a) => a.email.toLowerCase() === email.toLowerCase());
      if (account) return account;
      const key = email.toLowerCase();
      const existing = guests.get(key);
      if (existing) return existing;
      const guest = { id: `guest-${guests.size + 1}`, email, name };
      guests.set(key, guest);
      return guest;
    },
    records: () => [...guests.values()],
  };
}
