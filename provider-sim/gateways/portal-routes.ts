import { Elysia, t } from "elysia";
import type { CardOutcome, CustomerPortal, PortalView, SwitchOutcome } from "./customer-portal.ts";

const LABELS = { gateway_a: "Gateway A (Paddle sandbox)", gateway_b: "Gateway B (Stripe sandbox)" } as const;
const html = (value: string) => Bun.escapeHTML(value);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body>${body}</body></html>`;
}

const MESSAGES: Record<Exclude<CardOutcome["outcome"] | SwitchOutcome["outcome"], "not_found">, string> = {
  updated: "Your card was updated.",
  declined: "Your card was declined. Try another card.",
  invalid: "That is not a valid card number.",
  switched: "Your plan was changed.",
  not_offered: "That plan is not offered for this subscription.",
};

/** A form per price the subscription can switch to. */
function switches(subscription: PortalView["subscriptions"][number]): string {
  return subscription.plans
    .map(
      (plan) =>
        `<form method="post"><input type="hidden" name="subscription" value="${html(subscription.id)}"><input type="hidden" name="switch_to" value="${html(plan.price)}"><button type="submit">Switch to ${html(plan.label)}</button></form>`,
    )
    .join("");
}

function render(view: PortalView, outcome?: CardOutcome | SwitchOutcome): string {
  const rows = view.subscriptions
    .map(
      (each) =>
        `<tr><td>${html(each.description)}</td><td>${html(each.id)}</td><td data-status="${html(each.status)}">${html(each.status.replace("_", " "))}</td><td>${switches(each)}</td></tr>`,
    )
    .join("");
  const message =
    outcome && outcome.outcome !== "not_found" ? `<p role="status">${html(MESSAGES[outcome.outcome])}</p>` : "";
  const card = view.cardLast4 ? `<p>Card on file ending in ${html(view.cardLast4)}</p>` : "";
  const back = view.returnUrl ? `<p><a href="${html(view.returnUrl)}" id="return">Return to the shop</a></p>` : "";
  return page(
    "Billing",
    `<h1>${html(LABELS[view.gateway])}: billing</h1>${message}<table><thead><tr><th>Subscription</th><th>Id</th><th>Status</th><th>Plan</th></tr></thead><tbody>${rows}</tbody></table>${card}<form method="post"><label>Card number <input name="card_number" inputmode="numeric" autocomplete="cc-number" required></label> <button type="submit">Update card</button></form>${back}`,
  );
}

const notFound = page("Not found", "<p>No such portal session, or its link has expired.</p>");

/** `/portal/<gateway>/<session>`: the customer portal page and its card form. */
export function createPortalRoutes(portal: CustomerPortal, gateway: keyof typeof LABELS) {
  const path = `/portal/${gateway}/:id`;
  const params = t.Object({ id: t.String({ maxLength: 100 }) });
  return new Elysia()
    .get(
      path,
      ({ params, set }) => {
        set.headers["content-type"] = "text/html; charset=utf-8";
        const view = portal.view(params.id);
        if (!view) {
          set.status = 404;
          return notFound;
        }
        return render(view);
      },
      { params },
    )
    .post(
      path,
      ({ params, body, set }) => {
        set.headers["content-type"] = "text/html; charset=utf-8";
        // The page's forms post form-encoded fields; the raw-body parser hands their text over.
        const form = new URLSearchParams(typeof body === "string" ? body : "");
        const price = form.get("switch_to");
        if (price !== null) {
          const switched = portal.switchPlan(
            params.id,
            (form.get("subscription") ?? "").slice(0, 100),
            price.slice(0, 100),
          );
          if (switched.outcome === "not_found") {
            set.status = 404;
            return notFound;
          }
          if (switched.outcome !== "switched") set.status = 400;
          return render(switched.view, switched);
        }
        const card = form.get("card_number") ?? "";
        const outcome = portal.enterCard(params.id, card.slice(0, 40));
        if (outcome.outcome === "not_found") {
          set.status = 404;
          return notFound;
        }
        if (outcome.outcome !== "updated") set.status = outcome.outcome === "declined" ? 402 : 400;
        return render(outcome.view, outcome);
      },
      { params },
    );
}
