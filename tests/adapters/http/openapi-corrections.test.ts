import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { apiDocs } from "../../../adapters/http/api-reference-route.ts";
import { oneOf } from "../../../adapters/http/shared-schemas.ts";

type Json = any;

/** A small app served through the OpenAPI plugin and its corrections, as the marketplace is. */
async function documentOf(routes: (app: Elysia) => Pick<Elysia, "handle">): Promise<Json> {
  const docs = apiDocs({
    path: "/openapi",
    specPath: "/openapi/json",
    reference: { script: "/a.js", style: "/a.css", start: "/start.js" },
  });
  const app = routes(new Elysia().use(docs) as unknown as Elysia);
  return (await app.handle(new Request("http://localhost/openapi/json"))).json();
}

describe("the plugin's document, corrected", () => {
  test("a body is documented as JSON only, required unless declared optional", async () => {
    const document = await documentOf((app) =>
      app
        .post("/required", () => "ok", { body: t.Object({ name: t.String() }) })
        .post("/optional", () => "ok", { body: t.Optional(t.Object({ name: t.String() })) }),
    );
    const required = document.paths["/required"].post.requestBody;
    const optional = document.paths["/optional"].post.requestBody;
    expect(Object.keys(required.content)).toEqual(["application/json"]);
    expect([required.required, optional.required]).toEqual([true, false]);
  });

  test("an enum that may be null lists null, and no schema says `nullable`", async () => {
    const document = await documentOf((app) =>
      app.get("/shade", () => ({ shade: null, note: null }), {
        response: { 200: t.Object({ shade: t.Nullable(oneOf(["light", "dark"])), note: t.Nullable(t.String()) }) },
      }),
    );
    const schema = document.paths["/shade"].get.responses["200"].content["application/json"].schema;
    expect(schema.properties.shade.enum).toEqual(["light", "dark", null]);
    expect(JSON.stringify(document)).not.toContain('"nullable"');
  });

  test("a success is described in words and a text answer is filed under its own media type", async () => {
    const document = await documentOf((app) =>
      app
        .post("/things", () => ({ id: "1" }), { response: { 201: t.Object({ id: t.String() }) } })
        .get("/page", () => "<p>", { response: { 200: t.String({ contentMediaType: "text/html" }) } }),
    );
    expect(document.paths["/things"].post.responses["201"].description).toBe("Created");
    expect(Object.keys(document.paths["/page"].get.responses["200"].content)).toEqual(["text/html"]);
  });

  test("the problems an operation can answer follow from what it declares", async () => {
    const document = await documentOf((app) =>
      app
        .get("/open", () => "ok", { response: { 200: t.String() } })
        .get("/items/:id", () => "ok", { detail: { security: [{ bearer: [] }] }, response: { 200: t.String() } })
        .put("/typed/:id", () => "ok", {
          params: t.Object({ id: t.String({ maxLength: 8 }) }),
          body: t.Object({ name: t.String() }),
          response: { 200: t.String() },
        })
        .post("/api/auth/login", () => "ok", { response: { 200: t.String() } }),
    );
    const problems = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses).filter((status) => status !== "200");
    expect(problems("/open", "get")).toEqual(["400", "503", "default"]);
    expect(problems("/items/{id}", "get")).toEqual(["400", "401", "403", "404", "503", "default"]);
    expect(problems("/typed/{id}", "put")).toEqual(["400", "404", "413", "422", "503", "default"]);
    expect(problems("/api/auth/login", "post")).toEqual(["400", "429", "503", "default"]);
    expect(document.components.responses.ServiceUnavailable.content["application/problem+json"].schema).toEqual({
      $ref: "#/components/schemas/Problem",
    });
  });
});
