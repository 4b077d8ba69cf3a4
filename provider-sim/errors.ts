import { HttpProblem } from "../kit/problem.ts";

/**
 * The simulator's refusals, each a problem with its status and stable code. It has no domain
 * layer of its own, so they are plain `HttpProblem`s the kit's handler answers as they are.
 */
export const unauthorized = () => new HttpProblem(401, "UNAUTHORIZED", "Valid credentials are required.");

export const tenantNotFound = (reference: string) =>
  new HttpProblem(404, "TENANT_NOT_FOUND", `No tenant is known by "${reference}".`);

export const onboardingConflict = () =>
  new HttpProblem(
    409,
    "ONBOARDING_CONFLICT",
    "This order item was already onboarded with a different plan, billing interval, trial, product or customer.",
  );

export const tenantCancelled = () =>
  new HttpProblem(409, "TENANT_CANCELLED", "The tenant is cancelled; cancellation is terminal.");

export const unknownPlan = (plan: string) =>
  new HttpProblem(422, "UNKNOWN_PLAN", `The plan "${plan}" is not offered.`, [
    { path: "/plan", message: "is not one of the offered plans", code: "UNKNOWN_PLAN" },
  ]);

export const unsupportedBillingInterval = (plan: string, interval: string, path: "/billing_interval" | "/plan") =>
  new HttpProblem(422, "UNSUPPORTED_BILLING_INTERVAL", `The plan "${plan}" is not offered ${interval}.`, [
    { path, message: `plan "${plan}" does not offer ${interval} billing`, code: "UNSUPPORTED_BILLING_INTERVAL" },
  ]);

export const mailNotFound = (id: string) =>
  new HttpProblem(404, "MAIL_NOT_FOUND", `No message in the mail sandbox has the id "${id}".`);

export const mailWithoutHtml = (id: string) =>
  new HttpProblem(404, "MAIL_HAS_NO_HTML", `The message "${id}" has no HTML part.`);
