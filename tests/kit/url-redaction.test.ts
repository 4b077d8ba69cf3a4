import { describe, expect, test } from "bun:test";
import { createUrlRedactor } from "../../kit/url-redaction.ts";

const routes = ["/api/downloads/:token", "/api/orders/:id", "/api/admin/secrets/:ref", "/a/:id/sign/:signature/x"];
const redact = createUrlRedactor(() => routes);

describe("createUrlRedactor", () => {
  test.each([
    ["/api/downloads/eyJlIjoiMSJ9.5f3a", "/api/downloads/[redacted]"],
    ["/api/downloads/eyJlIjoiMSJ9.5f3a/extra", "/api/downloads/[redacted]/extra"],
    ["/api/downloads/abc?x=1", "/api/downloads/[redacted]?x=1"],
    ["/a/42/sign/deadbeef/x", "/a/42/sign/[redacted]/x"],
    ["/api/orders/0b9c?limit=5&cursor=abc", "/api/orders/0b9c?limit=5&cursor=abc"],
    ["/api/orders?token=abc&limit=5", "/api/orders?token=[redacted]&limit=5"],
    [
      "/x?access_token=a&api_key=b&X-Amz-Signature=c&client_secret=d&sig=e",
      "/x?access_token=[redacted]&api_key=[redacted]&X-Amz-Signature=[redacted]&client_secret=[redacted]&sig=[redacted]",
    ],
    ["/x?%74oken=abc", "/x?%74oken=[redacted]"],
    // A signed link's access (an order's status, an emailed billing-portal or invoice link).
    ["/orders/0b9c?access=9f3e&checkout=success", "/orders/0b9c?access=[redacted]&checkout=success"],
    [
      "/api/subscriptions/1/billing-portal?expires=17&access=ab",
      "/api/subscriptions/1/billing-portal?expires=17&access=[redacted]",
    ],
    ["/x?accessory=1", "/x?accessory=1"],
    ["/api/admin/secrets/gateway_a_sandbox_api_key", "/api/admin/secrets/gateway_a_sandbox_api_key"],
    ["/api/products", "/api/products"],
  ])("%s is logged as %s", (target, logged) => {
    expect(redact(target)).toBe(logged);
  });

  test("routes known only after the redactor was made are used", () => {
    const later: string[] = [];
    const lazy = createUrlRedactor(() => later);
    expect(lazy("/d/abc?token=t")).toBe("/d/abc?token=[redacted]");
    later.push("/d/:token");
    expect(lazy("/d/abc")).toBe("/d/[redacted]");
  });
});
