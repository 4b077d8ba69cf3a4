import { describe, expect, test } from "bun:test";
import {
  type CheckedResponse,
  conformanceProblems,
  declaredOperations,
  expectConforms,
  findOperation,
  matchPathTemplate,
} from "./support/schema.ts";

function response(
  status: number,
  body: unknown,
  contentType = "application/json",
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? "" : JSON.stringify(body);
  return { status, headers: new Headers({ "content-type": contentType, ...headers }), body, text } as CheckedResponse;
}

const tenant = {
  external_reference_id: "ref-1",
  external_tenant_id: "ten-1",
  external_customer_id: "cus-1",
  external_user_id: "usr-1",
  external_subscription_id: "sub-1",
  workspace_url: "https://pos.example.com/w/ten-1",
  status: "active",
  plan: "starter",
  trial_ends_at: null,
  current_period_end: "2030-01-01T00:00:00Z",
};
const problem = { type: "about:blank", title: "Not found", status: 404, detail: "no such tenant", code: "NOT_FOUND" };

describe("conformance checker (self-test of tests/contract/support/schema.ts)", () => {
  test("conformance checker: every declared operation and response compiles against the YAML", () => {
    const operations = declaredOperations();
    expect(operations.length).toBe(12);
    for (const { method, pathTemplate } of operations) {
      const operation = findOperation(method, pathTemplate);
      for (const status of Object.keys(operation.responses))
        expect(() => conformanceProblems(method, pathTemplate, response(Number(status), {}))).not.toThrow();
    }
  });

  test("conformance checker: concrete paths map to their templates, literal segments first", () => {
    expect(matchPathTemplate("GET", "/api/marketplace/status/abc")).toBe(
      "/api/marketplace/status/{external_reference}",
    );
    expect(matchPathTemplate("POST", "/api/marketplace/status")).toBe("/api/marketplace/status");
    expect(matchPathTemplate("GET", "/api/marketplace/admin/tenants?limit=2")).toBe("/api/marketplace/admin/tenants");
    expect(matchPathTemplate("GET", "/api/marketplace/admin/tenants/t1/subscription")).toBe(
      "/api/marketplace/admin/tenants/{tenant}/subscription",
    );
    expect(matchPathTemplate("GET", "/api/marketplace/onboard")).toBeUndefined();
    expect(matchPathTemplate("GET", "/api/marketplace/status/")).toBeUndefined();
  });

  test("conformance checker: accepts conforming responses", () => {
    expectConforms("POST", "/api/marketplace/onboard", response(201, tenant));
    expectConforms(
      "GET",
      "/api/marketplace/status/{external_reference}",
      response(404, problem, "application/problem+json"),
    );
    expectConforms(
      "POST",
      "/api/marketplace/onboard",
      response(429, { ...problem, status: 429, code: "RATE_LIMITED" }, "application/problem+json; charset=utf-8", {
        "retry-after": "5",
      }),
    );
    expectConforms(
      "GET",
      "/api/marketplace/admin/tenants/{tenant}",
      response(200, {
        ...tenant,
        order_id: "o",
        order_item_id: "i",
        product_ref: "p",
        billing_interval: null,
        customer: { id: "c", email: "a@b.co", name: "A" },
        created_at: "2030-01-01T00:00:00Z",
        updated_at: "2030-01-01T00:00:00Z",
      }),
    );
  });

  test("conformance checker: rejects mismatched problem statuses, wrong media types, schema violations and bad headers", () => {
    const cases: [string, string, CheckedResponse, RegExp][] = [
      [
        "POST",
        "/api/marketplace/status",
        response(429, problem, "application/problem+json"),
        /problem status 404 differs from the HTTP status 429/,
      ],
      [
        "POST",
        "/api/marketplace/onboard",
        response(202, tenant),
        /application\/json.*problem\+json|problem\+json.*application\/json/,
      ],
      ["POST", "/api/marketplace/status", response(404, problem), /content type application\/json is not/],
      ["POST", "/api/marketplace/status", response(200, tenant, "application/problem+json"), /content type/],
      ["POST", "/api/marketplace/status", response(200, { ...tenant, extra: 1 }), /additional properties/],
      ["POST", "/api/marketplace/status", response(200, { ...tenant, status: "paused" }), /\/status must be equal/],
      ["POST", "/api/marketplace/status", response(200, { ...tenant, workspace_url: "not a url" }), /workspace_url/],
      [
        "POST",
        "/api/marketplace/status",
        response(200, { ...tenant, trial_ends_at: "tomorrow" }),
        /trial_ends_at must match format/,
      ],
      [
        "POST",
        "/api/marketplace/status",
        response(404, { ...problem, code: "not-found" }, "application/problem+json"),
        /\/code must match pattern/,
      ],
      [
        "POST",
        "/api/marketplace/status",
        response(404, { ...problem, status: 400 }, "application/problem+json"),
        /problem status 400 differs/,
      ],
      [
        "POST",
        "/api/marketplace/onboard",
        response(429, { ...problem, status: 429 }, "application/problem+json", { "retry-after": "soon" }),
        /header Retry-After=soon/,
      ],
      ["GET", "/api/marketplace/admin/plans", response(200, { items: [{ id: "p" }] }), /required property 'name'/],
      [
        "GET",
        "/api/marketplace/admin/tenants/{tenant}",
        response(200, { ...tenant, order_id: "o", order_item_id: "i", product_ref: "p" }),
        /required property 'billing_interval'/,
      ],
      [
        "GET",
        "/api/marketplace/admin/tenants/{tenant}",
        response(200, {
          ...tenant,
          order_id: "o",
          order_item_id: "i",
          product_ref: "p",
          billing_interval: "weekly",
          customer: { id: "c", email: "a@b.co", name: "A" },
          created_at: "2030-01-01T00:00:00Z",
          updated_at: "2030-01-01T00:00:00Z",
          secret: "x",
        }),
        /must NOT have additional properties.*secret/,
      ],
      ["GET", "/api/marketplace/nowhere", response(200, {}), /declares no operation/],
    ];
    for (const [method, template, candidate, message] of cases)
      expect(() => expectConforms(method, template, candidate)).toThrow(message);
  });
});
