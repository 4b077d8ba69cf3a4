import { describe, expect, test } from "bun:test";
import { createOfflineApp } from "../../../scripts/lib/offline-app.ts";
import { documentProblems } from "../../support/openapi-contract.ts";

type Json = any;
interface Route {
  readonly method: string;
  readonly path: string;
  readonly hooks?: { body?: unknown; response?: unknown; detail?: Json };
}

const app = createOfflineApp("openapi-document-test");
const document: Json = await (await app.handle(new Request("http://localhost/openapi/json"))).json();
const routes = (app.routes as unknown as Route[]).filter((route) => !route.hooks?.detail?.hide);
// The OpenAPI plugin leaves static files (a path with a dot, such as /favicon.ico) out of the document.
const operations = routes.filter((route) => !route.path.includes("."));
const templateOf = (path: string) => path.replace(/:([^/]+)/g, "{$1}");
const operationOf = (route: Route) => document.paths[templateOf(route.path)]?.[route.method.toLowerCase()];
const name = (route: Route) => `${route.method} ${route.path}`;

/** A response schema Elysia checks, or (for a pre-serialized or streamed answer) a success documented by hand. */
function declaresSuccess(route: Route): boolean {
  const response = route.hooks?.response;
  if (response && typeof response === "object" && Object.keys(response).length > 0) return true;
  return Object.keys(route.hooks?.detail?.responses ?? {}).some((status) => /^[23]/.test(status));
}

const resolve = (node: Json): Json =>
  typeof node?.$ref === "string"
    ? node.$ref
        .slice(2)
        .split("/")
        .reduce((at: Json, key: string) => at[key], document)
    : node;

describe("the OpenAPI document is generated whole from the routes", () => {
  test("every route but the docs themselves declares its success response", () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((route) => !declaresSuccess(route)).map(name)).toEqual([]);
  });

  test("every route is an operation with a success response in the document", () => {
    const missing = operations.filter((route) => {
      const responses = operationOf(route)?.responses ?? {};
      return !Object.keys(responses).some((status) => /^[23]/.test(status));
    });
    expect(missing.map(name)).toEqual([]);
  });

  test("a route with a body schema documents it as a JSON request body with a schema", () => {
    const withBody = operations.filter((route) => route.hooks?.body);
    expect(withBody.length).toBeGreaterThan(20);
    const undocumented = withBody.filter(
      (route) => !operationOf(route)?.requestBody?.content?.["application/json"]?.schema,
    );
    expect(undocumented.map(name)).toEqual([]);
  });

  test("each webhook documents the event shape of its gateway", () => {
    const event = (gateway: string) =>
      document.paths[`/api/webhooks/${gateway}`].post.requestBody.content["application/json"].schema.$ref;
    expect([event("gateway_a"), event("gateway_b")]).toEqual([
      "#/components/schemas/GatewayAEvent",
      "#/components/schemas/GatewayBEvent",
    ]);
  });

  test("every error response is problem+json with the Problem schema; routes that need a token answer 401 and 403", () => {
    const wrong: string[] = [];
    for (const route of operations) {
      const operation = operationOf(route);
      const errors = Object.entries<Json>(operation.responses).filter(([status]) => !/^[23]/.test(status));
      for (const [status, response] of errors) {
        const schema = resolve(response).content?.["application/problem+json"]?.schema;
        if (schema?.$ref !== "#/components/schemas/Problem") wrong.push(`${name(route)} ${status}`);
      }
      const statuses = errors.map(([status]) => status);
      if (!statuses.includes("default") || !statuses.includes("503")) wrong.push(`${name(route)} default/503`);
      if (operation.security && !(statuses.includes("401") && statuses.includes("403"))) {
        wrong.push(`${name(route)} 401/403`);
      }
      if (route.path.includes("/:") && !statuses.includes("404")) wrong.push(`${name(route)} 404`);
    }
    expect(wrong).toEqual([]);
  });

  test("shared models are named under components.schemas", () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "Problem",
        "Product",
        "AdminProduct",
        "ProductPage",
        "PricingMapping",
        "Order",
        "OrderDetails",
        "Payment",
        "Fulfillment",
        "FulfillmentPage",
        "CheckoutRequest",
        "Checkout",
      ]),
    );
    expect(
      document.paths["/api/admin/fulfillments/{id}"].get.responses["200"].content["application/json"].schema,
    ).toEqual({ $ref: "#/components/schemas/Fulfillment" });
  });

  test("an integer query parameter is documented as an integer with its bounds", () => {
    const limit = document.paths["/api/admin/orders"].get.parameters.find((p: Json) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
  });
});

describe("the document is the same whichever routes were requested first", () => {
  test("a process that answered its probes before the document serves the committed document", async () => {
    const probed = createOfflineApp("openapi-after-probes");
    for (const path of ["/health", "/ready", "/api/products"])
      await probed.handle(new Request(`http://localhost${path}`));
    const served = await (await probed.handle(new Request("http://localhost/openapi/json"))).json();
    expect(served).toEqual(await Bun.file(new URL("../../../openapi/marketplace.json", import.meta.url)).json());
  });
});

describe("responses are checked against the document", () => {
  const json = new Headers({ "content-type": "application/json" });

  test("a body that breaks the schema of its operation and status is named", () => {
    const problems = documentProblems("GET", "/health", { status: 200, headers: json, text: '{"status":"down"}' });
    expect(problems.join("\n")).toContain("/status");
  });

  test("a status the operation does not declare is refused", () => {
    expect(documentProblems("GET", "/api/orders", { status: 201, headers: json, text: "{}" })).toHaveLength(1);
  });
});
