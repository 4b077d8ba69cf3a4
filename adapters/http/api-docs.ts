import { openapi } from "@elysiajs/openapi";
import { ScalarRender } from "@elysiajs/openapi/scalar";
import { Elysia } from "elysia";
import { completeApiDocument, type DocumentedRoute } from "./api-document.ts";
import type { Json } from "./api-schemas.ts";
import { PAGE_HEADERS } from "./page-routes.ts";

type OpenApiOptions = NonNullable<Parameters<typeof openapi>[0]>;
/** Typed by the plugin as Scalar's fully defaulted form; Scalar defaults what is left out itself. */
type ScalarConfig = Parameters<typeof ScalarRender>[1];

const isDocument = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !(value instanceof Response) && "paths" in value;

/**
 * Every route of the app that uses `plugin`, as the OpenAPI plugin itself reads them (Elysia keeps
 * the accessor protected; `routes` lists the plugin's own only).
 */
const globalRoutesOf = (plugin: object) =>
  (plugin as { getGlobalRoutes(): readonly DocumentedRoute[] }).getGlobalRoutes();

/**
 * The docs UI page, rendered as the plugin renders it but served by us: the plugin's own page is a
 * static response that no hook reaches, and this one must carry the headers of our other pages.
 */
function docsPage(options: OpenApiOptions & { readonly path: string; readonly specPath: string }) {
  const info = { title: "API", version: "0.0.0", ...options.documentation?.info };
  // The configuration rides in a data attribute of an empty script element; emptied of its blank
  // text it is not an inline script at all, so `script-src 'self'` has nothing to refuse.
  const config = { url: options.specPath.replace(/^\//, ""), version: "latest", ...options.scalar } as ScalarConfig;
  const html = ScalarRender(info, config).replace(/(<script\s+id="api-reference"[^>]*>)\s+(<\/script>)/, "$1$2");
  return new Elysia({ name: "api-docs-page" }).get(
    options.path,
    () => new Response(html, { headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8" } }),
    { detail: { hide: true } },
  );
}

/**
 * The OpenAPI plugin with its document completed from the routes (`completeApiDocument`). The
 * plugin rebuilds its document only when routes were added; the completion follows it.
 */
export function apiDocs(options: OpenApiOptions & { readonly path: string; readonly specPath: string }) {
  const completed = new WeakMap<Json, Json>();
  const docs = new Elysia({ name: "api-docs" });
  return docs
    .onAfterHandle(({ response }) => {
      if (!isDocument(response)) return;
      let document = completed.get(response);
      if (!document) {
        document = completeApiDocument(response, globalRoutesOf(docs));
        completed.set(response, document);
      }
      return document;
    })
    .use(docsPage(options))
    .use(openapi({ ...options, provider: null }));
}
