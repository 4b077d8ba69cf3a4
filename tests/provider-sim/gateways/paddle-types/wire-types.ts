import type { TypedSample } from "./literal-check.ts";

/** One call to the gateway_a API as it crossed the wire. */
export interface Exchange {
  readonly method: string;
  /** The path under the API's base URL, such as `/transactions/txn_…`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly status: number;
  readonly response: unknown;
}

/** The SDK's snake_case response type of each resource, as the API (and a webhook's `data`) carries it. */
const ENTITIES: Readonly<Record<string, string>> = {
  products: "IProductResponse",
  prices: "IPriceResponse",
  transactions: "ITransactionResponse",
  adjustments: "IAdjustmentResponse",
  subscriptions: "ISubscriptionResponse",
  customers: "ICustomerResponse",
};

/** The SDK's camelCase request types; the SDK turns them into the snake_case that is sent. */
const BODIES: Readonly<Record<string, string>> = {
  "POST /products": "CreateProductRequestBody",
  "POST /prices": "CreatePriceRequestBody",
  "PATCH /prices/{id}": "UpdatePriceRequestBody",
  "POST /transactions": "CreateTransactionRequestBody",
  "PATCH /transactions/{id}": "UpdateTransactionRequestBody",
  "POST /adjustments": "CreateAdjustmentRequestBody",
  "POST /customers": "CreateCustomerRequestBody",
  "PATCH /subscriptions/{id}": "UpdateSubscriptionRequestBody",
  "POST /subscriptions/{id}/cancel": "CancelSubscription",
};

const QUERIES: Readonly<Record<string, string>> = {
  "GET /products": "ListProductQueryParameters",
  "GET /prices": "ListPriceQueryParameters",
  "GET /transactions": "ListTransactionQueryParameters",
  "GET /adjustments": "ListAdjustmentQueryParameters",
  "GET /customers": "ListCustomerQueryParameters",
  "GET /subscriptions": "ListSubscriptionQueryParameters",
};

/** The data type of each event a webhook carries, by the event's group. */
const EVENT_DATA: Readonly<Record<string, string>> = {
  transaction: "ITransactionNotificationResponse",
  subscription: "ISubscriptionNotificationResponse",
  adjustment: "IAdjustmentNotificationResponse",
  customer: "ICustomerNotificationResponse",
  product: "IProductNotificationResponse",
  price: "IPriceNotificationResponse",
};

export const SDK_IMPORTS = [
  ...new Set([...Object.values(ENTITIES), ...Object.values(BODIES), ...Object.values(QUERIES)]),
  ...Object.values(EVENT_DATA),
  "ISubscriptionCreatedNotificationResponse",
  "IEventTypeResponse",
  "IEventsResponse",
  "IEventName",
];
export const SDK_INTERNAL_IMPORTS = ["Response", "ResponsePaginated", "ErrorResponse"];

/** `/prices/pri_01…/cancel` → `/prices/{id}/cancel`. */
const route = (exchange: Exchange) => `${exchange.method} ${exchange.path.replace(/^(\/[^/]+)\/[^/]+/, "$1/{id}")}`;

const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A snake_case body as the SDK's camelCase request object; `custom_data` is the caller's own and stays as it is. */
export function camelCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCased);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [camel(key), key === "custom_data" ? inner : camelCased(inner)]),
  );
}

/** Query parameters as the SDK's list parameters: numbers for `per_page`, lists for the comma-separated filters. */
function queryObject(query: Readonly<Record<string, string>>): Record<string, unknown> {
  const scalar = new Set(["after", "order_by", "search"]);
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [
      camel(key),
      key === "per_page" ? Number(value) : scalar.has(key) ? value : value.split(","),
    ]),
  );
}

function responseType(exchange: Exchange): string {
  if (exchange.status >= 400) return "ErrorResponse";
  const [, resource, id] = exchange.path.split("/");
  if (resource === "event-types") return "Response<IEventTypeResponse[]>";
  const entity = ENTITIES[resource ?? ""] ?? "never";
  return exchange.method === "GET" && id === undefined ? `ResponsePaginated<${entity}>` : `Response<${entity}>`;
}

/** What the marketplace sent (body and query) typed by the SDK's request types. */
export function requestSamples(exchange: Exchange): TypedSample[] {
  const samples: TypedSample[] = [];
  const name = route(exchange);
  if (exchange.body !== undefined) {
    samples.push({ label: `${name} request body`, type: BODIES[name] ?? "never", value: camelCased(exchange.body) });
  }
  if (Object.keys(exchange.query).length > 0) {
    samples.push({ label: `${name} query`, type: QUERIES[name] ?? "never", value: queryObject(exchange.query) });
  }
  return samples;
}

/** What the API answered, typed by the SDK's response types. */
export function responseSample(exchange: Exchange): TypedSample {
  return { label: `${route(exchange)} → ${exchange.status}`, type: responseType(exchange), value: exchange.response };
}

/** A webhook body: Paddle's event envelope over the SDK's notification type of its group. */
export function eventSample(body: { event_type: string }): TypedSample {
  const [group] = body.event_type.split(".");
  const data =
    body.event_type === "subscription.created"
      ? "ISubscriptionCreatedNotificationResponse"
      : (EVENT_DATA[group ?? ""] ?? "never");
  return {
    label: `event ${body.event_type}`,
    type: `IEventsResponse<${data}> & { event_type: IEventName }`,
    value: body,
  };
}
