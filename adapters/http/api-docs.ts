import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { completeApiDocument, type DocumentedRoute } from "./api-document.ts";
import type { Json } from "./api-schemas.ts";

type OpenApiOptions = NonNullable<Parameters<typeof openapi>[0]>;

const isDocument = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !(value instanceof Response) && "paths" in value;

/**
 * Every route of the app that uses `plugin`, as the OpenAPI plugin itself reads them (Elysia keeps
 * the accessor protected; `routes` lists the plugin's own only).
 */
const globalRoutesOf = (plugin: object) =>
  (plugin as { getGlobalRoutes(): readonly DocumentedRoute[] }).getGlobalRoutes();

/**
 * The OpenAPI plugin with its document completed from the routes (`completeApiDocument`). The
 * plugin rebuilds its document only when routes were added; the completion follows it.
 */
export function apiDocs(options: OpenApiOptions) {
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
    .use(openapi(options));
}
