import { Elysia } from "elysia";
import { requestIdOf } from "../../../kit/request-context.ts";
import { createFaultInjection } from "../../fault-injection.ts";
import type { FaultQueue } from "../../faults.ts";
import { checkBearer, createSandboxHandler } from "../sandbox-handler.ts";
import { selectAdjustments } from "./adjustment-list.ts";
import { PaddleError } from "./errors.ts";
import { oneOf, onlyKnown, text } from "./fields.ts";
import { KNOWN } from "./known-fields.ts";
import { csv, paginate } from "./pagination.ts";
import {
  customerInput,
  parseJsonObject,
  priceInput,
  priceUpdate,
  productInput,
  refundInput,
  subscriptionPatch,
  transactionInput,
} from "./requests.ts";
import type { GatewayASandbox } from "./sandbox.ts";
import { cancellationRequest } from "./transaction-cancel.ts";

const EVENT_TYPES = [
  ["transaction.completed", "transaction", "Occurs when a transaction is completed."],
  ["transaction.paid", "transaction", "Occurs when a transaction is paid."],
  ["transaction.payment_failed", "transaction", "Occurs when a payment fails for a transaction."],
  ["transaction.past_due", "transaction", "Occurs when a transaction becomes past due."],
  ["subscription.updated", "subscription", "Occurs when a subscription is updated."],
  ["subscription.activated", "subscription", "Occurs when a subscription becomes active."],
  ["subscription.past_due", "subscription", "Occurs when a subscription becomes past due."],
  ["subscription.canceled", "subscription", "Occurs when a subscription is canceled."],
  ["adjustment.created", "adjustment", "Occurs when an adjustment is created."],
  ["adjustment.updated", "adjustment", "Occurs when an adjustment is updated."],
] as const;

function authorize(apiKey: string) {
  return (request: Request) => {
    const check = checkBearer(request, apiKey);
    if (check === "missing") throw new PaddleError(401, "authentication_missing", "Authentication header missing.");
    if (check === "wrong") throw new PaddleError(401, "forbidden", "You aren't authorized to perform this request.");
  };
}

/** The Paddle Billing subset of docs/gateway-wire-formats.md under `/gateway_a`. */
export function createGatewayARoutes(sandbox: GatewayASandbox, apiKey: string, faults: FaultQueue) {
  const { catalog, billing, customers, discounts } = sandbox;
  const handle = createSandboxHandler(authorize(apiKey));
  const envelope = (request: Request, data: unknown, extra: Record<string, unknown> = {}) => ({
    data,
    meta: { request_id: requestIdOf(request), ...extra },
  });
  const list = <T extends { id: string }>(
    request: Request,
    items: readonly T[],
    query: Record<string, string | undefined>,
  ) => {
    const page = paginate(items, query, request.url);
    return envelope(request, page.data, { pagination: page.pagination });
  };
  const created = <T>(set: { status?: number | string }, value: T) => {
    set.status = 201;
    return value;
  };

  return new Elysia({ prefix: "/gateway_a" })
    .use(createFaultInjection({ faults }))
    .get(
      "/products",
      handle(({ request, query }) =>
        list(request, catalog.products({ ids: csv(query.id), status: csv(query.status) }), query),
      ),
    )
    .get(
      "/products/:id",
      handle(({ request, params }) => envelope(request, catalog.product(params.id as string))),
    )
    .post(
      "/products",
      handle(({ request, raw, set }) =>
        created(set, envelope(request, catalog.createProduct(productInput(parseJsonObject(raw))))),
      ),
    )
    .get(
      "/discounts",
      handle(({ request, query }) =>
        list(request, discounts.list({ ids: csv(query.id), status: csv(query.status), codes: csv(query.code) }), query),
      ),
    )
    .get(
      "/discounts/:id",
      handle(({ request, params }) => envelope(request, discounts.discount(params.id as string))),
    )
    .post(
      "/discounts",
      handle(({ request, raw, set }) => created(set, envelope(request, discounts.create(parseJsonObject(raw))))),
    )
    .patch(
      "/discounts/:id",
      handle(({ request, params, raw }) =>
        envelope(request, discounts.update(params.id as string, parseJsonObject(raw))),
      ),
    )
    .get(
      "/prices",
      handle(({ request, query }) =>
        list(
          request,
          catalog.prices({ ids: csv(query.id), status: csv(query.status), productIds: csv(query.product_id) }),
          query,
        ),
      ),
    )
    .get(
      "/prices/:id",
      handle(({ request, params }) => envelope(request, catalog.price(params.id as string))),
    )
    .post(
      "/prices",
      handle(({ request, raw, set }) => {
        const body = onlyKnown(parseJsonObject(raw), KNOWN.price);
        const productId = text(body.product_id, "product_id");
        return created(set, envelope(request, catalog.createPrice({ ...priceInput(body), product_id: productId })));
      }),
    )
    .patch(
      "/prices/:id",
      handle(({ request, params, raw }) =>
        envelope(request, catalog.updatePrice(params.id as string, priceUpdate(parseJsonObject(raw)))),
      ),
    )
    .get(
      "/customers",
      handle(({ request, query }) =>
        list(
          request,
          customers.list({ ids: csv(query.id), emails: csv(query.email), status: csv(query.status) }),
          query,
        ),
      ),
    )
    .get(
      "/customers/:id",
      handle(({ request, params }) => envelope(request, customers.customer(params.id as string))),
    )
    .post(
      "/customers",
      handle(({ request, raw, set }) =>
        created(set, envelope(request, customers.create(customerInput(parseJsonObject(raw))))),
      ),
    )
    .post(
      "/customers/:id/portal-sessions",
      handle(({ request, params, raw, set }) =>
        created(set, envelope(request, sandbox.portal.createSession(params.id as string, parseJsonObject(raw)))),
      ),
    )
    .post(
      "/transactions",
      handle(({ request, raw, set }) =>
        created(set, envelope(request, billing.createTransaction(transactionInput(parseJsonObject(raw))))),
      ),
      { fault: "gateway_a_transactions" },
    )
    .get(
      "/transactions/:id",
      handle(({ request, params }) => envelope(request, billing.transaction(params.id as string))),
    )
    .get(
      "/transactions/:id/invoice",
      handle(({ request, params, query }) =>
        envelope(
          request,
          sandbox.invoices.link(params.id as string, (query as Record<string, string | undefined>).disposition),
        ),
      ),
    )
    .patch(
      "/transactions/:id",
      handle(({ request, params, raw }) => {
        cancellationRequest(parseJsonObject(raw));
        return envelope(request, billing.cancelTransaction(params.id as string));
      }),
    )
    .get(
      "/adjustments",
      handle(({ request, query }) => list(request, selectAdjustments(billing.adjustments(), query), query)),
    )
    .post(
      "/adjustments",
      handle(({ request, raw, set }) =>
        created(set, envelope(request, sandbox.refund(refundInput(parseJsonObject(raw))))),
      ),
    )
    .get(
      "/subscriptions/:id",
      handle(({ request, params }) => envelope(request, billing.subscription(params.id as string))),
    )
    .patch(
      "/subscriptions/:id",
      handle(({ request, params, raw }) => {
        const patch = subscriptionPatch(parseJsonObject(raw));
        const id = params.id as string;
        return envelope(
          request,
          patch.kind === "items" ? sandbox.changeItems(id, patch) : sandbox.removeScheduledChange(id),
        );
      }),
    )
    .patch(
      "/subscriptions/:id/preview",
      handle(({ request, params, raw }) => {
        const patch = subscriptionPatch(parseJsonObject(raw));
        if (patch.kind !== "items") throw PaddleError.invalidField("items", "a preview needs the items to change");
        return envelope(request, sandbox.billing.previewItems(params.id as string, patch));
      }),
    )
    .post(
      "/subscriptions/:id/cancel",
      handle(({ request, params, raw }) => {
        const body = raw.byteLength === 0 ? {} : onlyKnown(parseJsonObject(raw), KNOWN.cancel);
        const effective = oneOf(
          body.effective_from,
          "effective_from",
          ["immediately", "next_billing_period"] as const,
          "next_billing_period",
        );
        return envelope(request, sandbox.cancel(params.id as string, effective));
      }),
    )
    .get(
      "/event-types",
      handle(({ request }) =>
        envelope(
          request,
          EVENT_TYPES.map(([name, group, description]) => ({ name, description, group, available_versions: [1] })),
        ),
      ),
    );
}
