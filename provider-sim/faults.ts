export const FAULT_ROUTES = [
  "onboard",
  "status",
  "suspend",
  "cancel",
  "upgrade",
  "admin_overview",
  "admin_tenants",
  "admin_tenant",
  "admin_tenant_status",
  "admin_tenant_subscription",
  "admin_plans",
  // The gateway sandboxes' calls that open a checkout: a Paddle transaction, a Stripe Checkout Session.
  "gateway_a_transactions",
  "gateway_b_checkout_sessions",
] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];

export const FAULT_MODES = ["error", "rate_limit", "delay", "hang", "garbage"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  readonly route: FaultRoute;
  readonly mode: FaultMode;
  readonly count: number;
  readonly status?: number | undefined;
  readonly delay_ms?: number | undefined;
  readonly retry_after_s?: number | undefined;
}

export interface FaultQueue {
  enqueue(fault: Fault): void;
  /** The fault for this call of `route`, if one is queued; each call uses up one of its `count`. */
  take(route: FaultRoute): Fault | undefined;
  /** Settles only when the queue is cleared (reset or shutdown). */
  hang(): Promise<void>;
  /** Drops every queued fault and releases every hung request. */
  clear(): void;
}

export function createFaultQueue(): FaultQueue {
  let queued: { fault: Fault; remaining: number }[] = [];
  let release = Promise.withResolvers<void>();
  return {
    enqueue(fault) {
      queued.push({ fault, remaining: fault.count });
    },
    take(route) {
      const entry = queued.find((candidate) => candidate.fault.route === route);
      if (!entry) return undefined;
      entry.remaining -= 1;
      if (entry.remaining <= 0) queued = queued.filter((candidate) => candidate !== entry);
      return entry.fault;
    },
    hang: () => release.promise,
    clear() {
      queued = [];
      release.resolve();
      release = Promise.withResolvers<void>();
    },
  };
}
