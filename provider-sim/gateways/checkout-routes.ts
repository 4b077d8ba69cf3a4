import { Elysia, t } from "elysia";
import { HttpProblem } from "../../kit/problem.ts";
import { renderCheckoutPage, renderReceiptPage } from "./checkout-page.ts";
import type { HostedCheckout } from "./hosted-checkout.ts";

type Set = { status?: number | string; headers: Record<string, string | number> };

function html(set: Set, status: number, body: string): string {
  set.status = status;
  set.headers["content-type"] = "text/html; charset=utf-8";
  return body;
}

const notFoundPage = (set: Set) =>
  html(
    set,
    404,
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>No such checkout.</p></body></html>',
  );

function notFound(): HttpProblem {
  return new HttpProblem(404, "CHECKOUT_NOT_FOUND", "No checkout is known by this id.");
}

/** `/checkout/<gateway>/{id}`: the page, its Pay button, and the same actions for scripts. */
export function createCheckoutRoutes(checkout: HostedCheckout) {
  const base = `/checkout/${checkout.gateway}/:id`;
  const params = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });
  return new Elysia()
    .get(
      base,
      ({ params, set }) => {
        const view = checkout.view(params.id);
        return view ? html(set, 200, renderCheckoutPage(view)) : notFoundPage(set);
      },
      { params },
    )
    .post(
      base,
      async ({ params, set }) => {
        const result = await checkout.pay(params.id);
        const view = checkout.view(params.id);
        if (result.outcome === "not_found" || !view) return notFoundPage(set);
        if (result.outcome === "already_paid") {
          return html(set, 409, renderReceiptPage(view, "This checkout is already paid."));
        }
        if (result.outcome === "expired") return html(set, 410, renderReceiptPage(view, "This checkout has expired."));
        if (!view.successUrl) return html(set, 200, renderReceiptPage(view, "Payment received. Thank you."));
        set.status = 303;
        set.headers.location = view.successUrl;
        return "";
      },
      { params },
    )
    .post(
      `${base}/pay`,
      async ({ params }) => {
        const result = await checkout.pay(params.id);
        if (result.outcome === "not_found") throw notFound();
        if (result.outcome === "already_paid") {
          throw new HttpProblem(
            409,
            "CHECKOUT_ALREADY_PAID",
            "This checkout is already paid; /resend delivers its event again.",
          );
        }
        if (result.outcome === "expired") throw new HttpProblem(410, "CHECKOUT_EXPIRED", "This checkout has expired.");
        return result.delivery;
      },
      { params },
    )
    .post(
      `${base}/resend`,
      async ({ params }) => {
        const result = await checkout.resend(params.id);
        if (result.outcome === "not_found") throw notFound();
        if (result.outcome === "not_paid")
          throw new HttpProblem(409, "CHECKOUT_NOT_PAID", "This checkout is not paid yet.");
        return result.delivery;
      },
      { params },
    );
}
