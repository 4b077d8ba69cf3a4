import { describe, expect, test } from "bun:test";
import { loadBrowserPages } from "../../../adapters/http/browser-pages.ts";
import { type BrowserPages, createPageRoutes } from "../../../adapters/http/page-routes.ts";

const pages = (overrides: Partial<BrowserPages> = {}) =>
  createPageRoutes({ pages: { ...loadBrowserPages({ simulatorUrl: undefined }), ...overrides } });

const get = (app: ReturnType<typeof pages>, path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://localhost${path}`, { headers }));

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe("the home page", () => {
  test("is HTML linking the docs, health, readiness and both consoles", async () => {
    const response = await get(pages(), "/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(hrefs(await response.text())).toEqual([
      "/openapi",
      "/openapi/json",
      "/health",
      "/ready",
      "/admin",
      "/account",
    ]);
  });

  test("links the provider simulator when one is configured (development)", async () => {
    const html = await (await get(pages({ simulatorUrl: "http://127.0.0.1:4010" }), "/")).text();
    expect(hrefs(html)).toContain("http://127.0.0.1:4010/health");
  });
});

describe("the order status page", () => {
  test("is the same static page for every order, running only our own script", async () => {
    const response = await get(pages(), "/orders/0b5f6c1e-1111-4222-8333-444455556666?checkout=success");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toMatch(/<script type="module" src="\/assets\/order-status-[a-z0-9]+\.js"><\/script>/);
    expect(html).toContain('id="signin-form"');
    expect(html).toContain('href="/account"');
  });

  test("its script, built with the consoles, is kept for good and answers 304 when unchanged", async () => {
    const app = pages();
    const html = await (await get(app, "/orders/any")).text();
    const script = html.match(/src="(\/assets\/order-status-[a-z0-9]+\.js)"/)?.[1] as string;
    const first = await get(app, script);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toStartWith("text/javascript");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await first.text()).toContain("marketplace.customer_token");
    const etag = first.headers.get("etag") ?? "";
    expect((await get(app, script, { "if-none-match": etag })).status).toBe(304);
  });

  test("an unknown asset is a 404 problem", async () => {
    const response = await get(pages(), "/assets/secrets.txt");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toStartWith("application/problem+json");
  });
});
