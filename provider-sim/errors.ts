import { DomainError } from "../domain/shared/domain-error.ts";

export class Unauthorized extends DomainError {
  readonly code = "UNAUTHORIZED";
  readonly category = "unauthenticated";

  constructor() {
    super("Valid credentials are required.");
  }
}

export class TenantNotFound extends DomainError {
  readonly code = "TENANT_NOT_FOUND";
  readonly category = "not_found";

  constructor(reference: string) {
    super(`No tenant is known by "${reference}".`);
  }
}

export class OnboardingConflict extends DomainError {
  readonly code = "ONBOARDING_CONFLICT";
  readonly category = "conflict";

  constructor() {
    super("This order item was already onboarded with a different plan, billing interval, trial, product or customer.");
  }
}

export class TenantCancelled extends DomainError {
  readonly code = "TENANT_CANCELLED";
  readonly category = "conflict";

  constructor() {
    super("The tenant is cancelled; cancellation is terminal.");
  }
}

export class UnknownPlan extends DomainError {
  readonly code = "UNKNOWN_PLAN";
  readonly category = "invalid";

  constructor(plan: string) {
    super(`The plan "${plan}" is not offered.`, [
      { path: "/plan", message: "is not one of the offered plans", code: "UNKNOWN_PLAN" },
    ]);
  }
}

export class UnsupportedBillingInterval extends DomainError {
  readonly code = "UNSUPPORTED_BILLING_INTERVAL";
  readonly category = "invalid";

  constructor(plan: string, interval: string, path: "/billing_interval" | "/plan") {
    super(`The plan "${plan}" is not offered ${interval}.`, [
      { path, message: `plan "${plan}" does not offer ${interval} billing`, code: "UNSUPPORTED_BILLING_INTERVAL" },
    ]);
  }
}
