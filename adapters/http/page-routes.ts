import { Elysia, t } from "elysia";
import { problem, problemResponse } from "../../kit/problem.ts";
import { escapeHtml } from "./html.ts";

/** A file served to browsers: its bytes never change while the process runs. */
export interface StaticAsset {
  /** The bytes, read when first asked for (a large file nobody requests never takes memory). */
  readonly body: () => Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  readonly etag: string;
  readonly cacheControl: string;
}

export type ConsoleName = "admin" | "account";

/** The consoles' pages and assets, built from `web/` (console-bundle.ts). */
export interface ConsoleBundle {
  /** The page every path under `/admin` or `/account` answers with, and the order status page. */
  readonly pages: Readonly<Record<ConsoleName | "order", StaticAsset>>;
  /** Scripts that server-rendered pages load, by the asset name they are served under. */
  readonly scripts: { readonly buyForm: string };
  /** Scripts and styles, served under `/assets/{name}`; their names carry their hash. */
  readonly assets: Readonly<Record<string, StaticAsset>>;
}

/** Where the API reference page finds its script, its stylesheet and the script that starts it. */
export interface ApiReferenceAssets {
  readonly script: string;
  readonly style: string;
  readonly start: string;
}

export interface BrowserPages {
  /** Served under `/assets/{name}`. */
  readonly assets: Readonly<Record<string, StaticAsset>>;
  /** The API reference page's files, each named by its content so a browser may keep it for good. */
  readonly apiReference: ApiReferenceAssets;
  /** The bundled provider simulator, linked from the home page in development. */
  readonly simulatorUrl: string | undefined;
  /** The admin console and the customer's account, built from `web/` as the process starts. */
  readonly console: () => Promise<ConsoleBundle>;
}

export interface PageDeps {
  readonly pages: BrowserPages;
}

export const FAVICON_ASSET = "favicon.svg";

/** Our own pages load only our own scripts and talk only to us; no inline script runs. */
export const PAGE_HEADERS = {
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

async function assetNamed(deps: PageDeps, name: string) {
  return deps.pages.assets[name] ?? (await deps.pages.console()).assets[name];
}

function consoleRoutes(deps: PageDeps, name: ConsoleName, summary: string) {
  const serve = async ({ request }: { request: Request }) =>
    serveAsset((await deps.pages.console()).pages[name], request);
  const detail = { tags: ["pages"], summary };
  return (
    new Elysia({ name: `console-${name}` })
      .get(`/${name}`, serve, { response: Html, detail })
      // Every page below is the same document, routed in the browser; the document lists it once.
      .get(`/${name}/*`, serve, { response: Html, detail: { ...detail, hide: true } })
  );
}

/**
 * What a browser lands on: the home page, the order status page after checkout, the two consoles
 * and their assets.
 */
export function createPageRoutes(deps: PageDeps) {
  return new Elysia({ name: "page-routes" })
    .use(consoleRoutes(deps, "admin", "Admin console: products, gateways, deliveries, orders"))
    .use(consoleRoutes(deps, "account", "Customer account: purchases, licenses, subscriptions, notifications"))
    .get(
      "/",
      () =>
        new Response(homePage(deps.pages.simulatorUrl), {
          headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8" },
        }),
      { response: Html, detail: { tags: ["pages"], summary: "Home page linking the docs, health and consoles" } },
    )
    .get("/orders/:id", async ({ request }) => serveAsset((await deps.pages.console()).pages.order, request), {
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
    .get("/assets/:name", async ({ params, request }) => serveAsset(await assetNamed(deps, params.name), request), {
      params: t.Object({ name: t.String({ maxLength: 128 }) }),
      response: t.String({
        description: "A script or stylesheet of the docs UI, the order status page or the consoles",
        contentMediaType: "text/javascript",
      }),
      detail: { tags: ["pages"], summary: "Scripts and styles of the docs UI, the order status page and the consoles" },
    });
}
