import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { correctApiDocument } from "./openapi-corrections.ts";
import type { Json } from "./openapi-named-models.ts";
import { type ApiReferenceAssets, PAGE_HEADERS } from "./page-routes.ts";

type OpenApiOptions = NonNullable<Parameters<typeof openapi>[0]>;
type ApiDocsOptions = OpenApiOptions & {
  readonly path: string;
  readonly specPath: string;
  readonly reference: ApiReferenceAssets;
};

const isDocument = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !(value instanceof Response) && "paths" in value;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The API reference page: Swagger UI from our own host, started by a script file (the page's
 * content security policy runs no inline script), reading the document at `specPath`.
 */
function docsPage({ path, specPath, reference, documentation }: ApiDocsOptions) {
  const title = escapeHtml(documentation?.info?.title ?? "API");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="${reference.style}"></head>
<body><div id="api-reference" data-url="${escapeHtml(specPath.replace(/^\//, ""))}"></div>
<script src="${reference.script}"></script>
<script src="${reference.start}"></script>
</body></html>
`;
  return new Elysia({ name: "api-docs-page" }).get(
    path,
    () => new Response(html, { headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8" } }),
    { detail: { hide: true } },
  );
}

/**
 * The plugin leaves out every path with a dot as a static file; under `/api/` such a path is an
 * operation (the CSV exports, `orders.csv`), elsewhere a file such as `/favicon.ico`.
 */
const FILES_OUTSIDE_THE_API = /^\/(?!api\/).*\./;

/**
 * The OpenAPI plugin, its document corrected (`correctApiDocument`). The plugin rebuilds its
 * document only when routes were added; the correction follows it.
 */
export function apiDocs(options: ApiDocsOptions) {
  const corrected = new WeakMap<Json, Json>();
  return new Elysia({ name: "api-docs" })
    .onAfterHandle(({ response }) => {
      if (!isDocument(response)) return;
      let document = corrected.get(response);
      if (!document) {
        document = correctApiDocument(response);
        corrected.set(response, document);
      }
      return document;
    })
    .use(docsPage(options))
    .use(openapi({ exclude: { staticFile: false, paths: [FILES_OUTSIDE_THE_API] }, ...options, provider: null }));
}
