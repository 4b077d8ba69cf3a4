import { describe, expect, test } from "bun:test";
import { loadBrowserPages } from "../../../adapters/http/browser-pages.ts";
import { buildConsole } from "../../../adapters/http/console-bundle.ts";
import { createPageRoutes } from "../../../adapters/http/page-routes.ts";

const app = createPageRoutes({ pages: loadBrowserPages({ simulatorUrl: undefined }) });
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://marketplace.test${path}`, { headers }));

/** The script and stylesheet names a console page loads first. */
const loadedBy = (html: string) => [...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1] as string);

describe("the web console's bundle", () => {
  test("every page under /admin and /account is the console's page, revalidated on each load", async () => {
    for (const path of ["/admin", "/admin/products/123", "/account", "/account/anything/deeper"]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(await response.text()).toContain('<div id="app">');
    }
    expect(await (await get("/admin")).text()).not.toBe(await (await get("/account")).text());
  });

  test("what a console page loads first is served, kept for good, and under 150 KB gzipped", async () => {
    const html = await (await get("/admin")).text();
    const names = loadedBy(html);
    expect(names.some((name) => name.endsWith(".js"))).toBe(true);
    expect(names.some((name) => name.endsWith(".css"))).toBe(true);
    let gzipped = 0;
    for (const name of names.filter((n) => n !== "favicon.ico")) {
      const response = await get(`/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const etag = response.headers.get("etag") as string;
      gzipped += Bun.gzipSync(new Uint8Array(await response.arrayBuffer())).length;
      expect((await get(`/assets/${name}`, { "if-none-match": etag })).status).toBe(304);
    }
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(150 * 1024);
  });

  test("a console page preloads what its script imports and leaves the pages behind sign-in for later", async () => {
    const bundle = await buildConsole();
    for (const console of ["admin", "account"] as const) {
      const first = loadedBy(new TextDecoder().decode(bundle.pages[console].body())).filter((name) =>
        name.endsWith(".js"),
      );
      const code = (name: string) => new TextDecoder().decode(bundle.assets[name]?.body());
      // Every chunk a first-loaded script imports statically is preloaded with it.
      for (const name of first) {
        for (const match of code(name).matchAll(/(?:\bfrom\s*|\bimport\s*)"\.\/(chunk-[\w-]+\.js)"/g)) {
          expect(first).toContain(match[1] as string);
        }
      }
      // The pages are fetched with import(): their chunks are served but not loaded first.
      const later = Object.keys(bundle.assets).filter((name) => name.startsWith("chunk-") && !first.includes(name));
      expect(later.length).toBeGreaterThan(3);
      expect(first.map(code).join("")).toContain('import("./chunk-');
    }
    const adminFirst = loadedBy(new TextDecoder().decode(bundle.pages.admin.body()));
    const firstCode = adminFirst.map((name) => new TextDecoder().decode(bundle.assets[name]?.body())).join("");
    // The Dead jobs page's button is in a chunk of its own.
    expect(firstCode).not.toContain("Redrive");
    const everything = Object.values(bundle.assets).map((asset) => new TextDecoder().decode(asset.body()));
    expect(everything.some((text) => text.includes("Redrive"))).toBe(true);
  });

  test("an asset name the build did not write is a problem+json 404", async () => {
    const response = await get("/assets/admin-doesnotexist.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });

  test("the build names its outputs by content: building twice gives the same names", async () => {
    const [first, second] = await Promise.all([buildConsole(), buildConsole()]);
    expect(Object.keys(first.assets).sort()).toEqual(Object.keys(second.assets).sort());
    expect(first.pages.admin.etag).toBe(second.pages.admin.etag);
  });
});
