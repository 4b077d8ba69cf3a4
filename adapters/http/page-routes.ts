import { Elysia, t } from "elysia";
import { problem, problemResponse } from "../../kit/problem.ts";

/** A file served to browsers: its bytes never change while the process runs. */
export interface StaticAsset {
  /** The bytes, read when first asked for (a large file nobody requests never takes memory). */
  readonly body: () => Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  readonly etag: string;
  readonly cacheControl: string;
}

export interface BrowserPages {
  /** Served under `/assets/{name}`; `order-status.html` is the page behind `/orders/{id}`. */
  readonly assets: Readonly<Record<string, StaticAsset>>;
  /** The docs UI's script, named by its content so a browser may keep it for good. */
  readonly docsScriptPath: string;
  /** The bundled provider simulator, linked from the home page in development. */
  readonly simulatorUrl: string | undefined;
}

export interface PageDeps {
  readonly pages: BrowserPages;
}

export const ORDER_PAGE_ASSET = "order-status.html";
export const FAVICON_ASSET = "favicon.svg";

/** Our own pages load only our own scripts and talk only to us; no inline script runs. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

const Html = t.String({ description: "An HTML page", contentMediaType: "text/html" });

function serveAsset(asset: StaticAsset | undefined, request: Request) {
  if (!asset) return problemResponse(problem(404, "ROUTE_NOT_FOUND", "No resource lives at this path."));
  const headers = { ...PAGE_HEADERS, etag: asset.etag, "cache-control": asset.cacheControl };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  return new Response(asset.body(), { headers: { ...headers, "content-type": asset.contentType } });
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function homePage(simulatorUrl: string | undefined): string {
  const links: [string, string][] = [
    ["/openapi", "API documentation"],
    ["/openapi/json", "OpenAPI document"],
    ["/health", "Health"],
    ["/ready", "Readiness"],
    ["/admin", "Admin console"],
    ["/account", "Customer account"],
    ...(simulatorUrl ? ([[`${simulatorUrl}/health`, "Provider simulator (development)"]] as [string, string][]) : []),
  ];
  const items = links.map(([href, label]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marketplace</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Marketplace</h1>
<p>Catalog, checkout, payments and fulfillment of digital products.</p>
<ul>
${items.join("\n")}
</ul>
</body></html>
`;
}

/** What a browser lands on: the home page, the order status page after checkout, and their assets. */
export function createPageRoutes(deps: PageDeps) {
  return new Elysia({ name: "page-routes" })
    .get(
      "/",
      () =>
        new Response(homePage(deps.pages.simulatorUrl), {
          headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8" },
        }),
      { response: Html, detail: { tags: ["pages"], summary: "Home page linking the docs, health and consoles" } },
    )
    .get("/orders/:id", ({ request }) => serveAsset(deps.pages.assets[ORDER_PAGE_ASSET], request), {
      params: t.Object({ id: t.String({ maxLength: 64 }) }),
      response: Html,
      detail: {
        tags: ["pages"],
        summary: "Order status page where checkout returns the customer (signs in, then follows delivery)",
      },
    })
    .get("/favicon.ico", ({ request }) => serveAsset(deps.pages.assets[FAVICON_ASSET], request), {
      // Browsers ask for it on every page, the docs UI's included; a 404 there is an error in their console.
      response: t.String({ description: "The marketplace's icon", contentMediaType: "image/svg+xml" }),
      detail: { tags: ["pages"], summary: "The icon browsers show in the tab" },
    })
    .get("/assets/:name", ({ params, request }) => serveAsset(deps.pages.assets[params.name], request), {
      params: t.Object({ name: t.String({ maxLength: 128 }) }),
      response: t.String({
        description: "A script of the docs UI or of the order status page",
        contentMediaType: "text/javascript",
      }),
      detail: { tags: ["pages"], summary: "Scripts of the docs UI and the order status page, served locally" },
    });
}
