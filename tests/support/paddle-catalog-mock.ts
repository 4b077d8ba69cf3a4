import { HttpResponse, http } from "msw";

export interface PaddleCatalogState {
  readonly products: Map<string, { id: string; name: string; custom_data: Record<string, string> }>;
  readonly prices: Map<
    string,
    {
      id: string;
      product_id: string;
      amount: string;
      currency_code: string;
      interval: string | null;
      variant: string;
      /** Paddle's `tax_mode`; absent means the account's setting. */
      tax_mode?: string;
    }
  >;
  readonly calls: string[];
}

/** An in-memory Paddle catalog under `base` that records every call as "METHOD path body". */
export function paddleCatalogHandlers(
  base: string,
  state: PaddleCatalogState,
  options: { createDelayMs?: number } = {},
) {
  let next = 0;
  const envelope = (data: unknown) => HttpResponse.json({ data, meta: { request_id: "req" } });
  const notFound = () =>
    HttpResponse.json(
      { error: { type: "request_error", code: "not_found", detail: "not found" }, meta: {} },
      { status: 404 },
    );
  const product = (p: { id: string; name: string; custom_data: Record<string, string> }) => ({
    ...p,
    description: null,
    tax_category: "standard",
    status: "active",
  });
  const price = (p: PaddleCatalogState["prices"] extends Map<string, infer V> ? V : never) => ({
    id: p.id,
    product_id: p.product_id,
    description: p.variant,
    unit_price: { amount: p.amount, currency_code: p.currency_code },
    tax_mode: p.tax_mode ?? "account_setting",
    billing_cycle: p.interval ? { interval: p.interval, frequency: 1 } : null,
    trial_period: null,
    status: "active",
    custom_data: { variant: p.variant },
  });
  return [
    http.get(`${base}/products`, ({ request }) => {
      state.calls.push(`GET /products${new URL(request.url).search}`);
      return HttpResponse.json({
        data: [...state.products.values()].map(product),
        meta: {
          request_id: "req",
          pagination: { per_page: 200, next: null, has_more: false, estimated_total: state.products.size },
        },
      });
    }),
    http.get(`${base}/products/:id`, ({ params }) => {
      state.calls.push(`GET /products/${params.id}`);
      const found = state.products.get(String(params.id));
      return found ? envelope(product(found)) : notFound();
    }),
    http.post(`${base}/products`, async ({ request }) => {
      const body = (await request.json()) as { name: string; custom_data: Record<string, string> };
      state.calls.push(`POST /products ${body.custom_data.marketplace_product_id}`);
      if (options.createDelayMs) await new Promise((resolve) => setTimeout(resolve, options.createDelayMs));
      const created = { id: `pro_${++next}`, name: body.name, custom_data: body.custom_data };
      state.products.set(created.id, created);
      return envelope(product(created));
    }),
    http.get(`${base}/prices`, ({ request }) => {
      const productId = new URL(request.url).searchParams.get("product_id");
      state.calls.push(`GET /prices?product_id=${productId}`);
      return envelope([...state.prices.values()].filter((p) => p.product_id === productId).map(price));
    }),
    http.get(`${base}/prices/:id`, ({ params }) => {
      state.calls.push(`GET /prices/${params.id}`);
      const found = state.prices.get(String(params.id));
      return found ? envelope(price(found)) : notFound();
    }),
    http.post(`${base}/prices`, async ({ request }) => {
      const body = (await request.json()) as {
        product_id: string;
        unit_price: { amount: string; currency_code: string };
        tax_mode: string;
        billing_cycle: { interval: string } | null;
        custom_data: { variant: string };
      };
      state.calls.push(
        `POST /prices ${body.custom_data.variant} ${body.unit_price.amount} ${body.unit_price.currency_code} ${body.billing_cycle?.interval ?? "once"}`,
      );
      const created = {
        id: `pri_${++next}`,
        product_id: body.product_id,
        amount: body.unit_price.amount,
        currency_code: body.unit_price.currency_code,
        interval: body.billing_cycle?.interval ?? null,
        variant: body.custom_data.variant,
        tax_mode: body.tax_mode,
      };
      state.prices.set(created.id, created);
      return envelope(price(created));
    }),
    http.patch(`${base}/prices/:id`, async ({ params, request }) => {
      const body = (await request.json()) as {
        unit_price: { amount: string; currency_code: string };
        tax_mode: string;
      };
      state.calls.push(`PATCH /prices/${params.id} ${body.unit_price.amount}`);
      const found = state.prices.get(String(params.id));
      if (!found) return notFound();
      const updated = {
        ...found,
        amount: body.unit_price.amount,
        currency_code: body.unit_price.currency_code,
        tax_mode: body.tax_mode,
      };
      state.prices.set(updated.id, updated);
      return envelope(price(updated));
    }),
  ];
}

export const emptyPaddleCatalog = (): PaddleCatalogState => ({ products: new Map(), prices: new Map(), calls: [] });
