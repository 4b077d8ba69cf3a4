import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { apiDocs } from "../../../adapters/http/api-reference-route.ts";
import { named } from "../../../adapters/http/openapi-models.ts";
import { oneOf } from "../../../adapters/http/shared-schemas.ts";

type Json = any;

const Shade = named("TestShade", oneOf(["light", "dark"]));
const Swatch = named("TestSwatch", t.Object({ shade: Shade, hex: t.String() }));
const Palette = named(
  "TestPalette",
  t.Object({ main: Swatch, accent: t.Nullable(Swatch), fallback: t.Nullable(Shade), shades: t.Array(Shade) }),
);

/** A small app served through the OpenAPI plugin and its corrections, as the marketplace is. */
async function documentOf(routes: (app: Elysia) => Elysia): Promise<Json> {
  const docs = apiDocs({
    path: "/openapi",
    specPath: "/openapi/json",
    reference: { script: "/a.js", style: "/a.css", start: "/start.js" },
  });
  const app = routes(new Elysia().use(docs) as unknown as Elysia);
  return (await app.handle(new Request("http://localhost/openapi/json"))).json();
}

describe("the plugin's document, corrected", () => {
  test("a named model is one component, referenced where used, with the models it holds referenced in turn", async () => {
    const document = await documentOf((app) =>
      app.post("/palettes", ({ body }) => body, { body: Palette, response: { 201: Palette } }),
    );
    const operation = document.paths["/palettes"].post;
    expect(operation.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TestPalette",
    });
    expect(operation.responses["201"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TestPalette",
    });
    const { schemas } = document.components;
    expect(schemas.TestPalette.properties.main).toEqual({ $ref: "#/components/schemas/TestSwatch" });
    expect(schemas.TestPalette.properties.accent).toEqual({
      anyOf: [{ $ref: "#/components/schemas/TestSwatch" }, { type: "null" }],
    });
    expect(schemas.TestPalette.properties.fallback).toEqual({
      anyOf: [{ $ref: "#/components/schemas/TestShade" }, { type: "null" }],
    });
    expect(schemas.TestPalette.properties.shades.items).toEqual({ $ref: "#/components/schemas/TestShade" });
    expect(schemas.TestSwatch.properties.shade).toEqual({ $ref: "#/components/schemas/TestShade" });
    expect(schemas.TestShade).toEqual({ type: "string", enum: ["light", "dark"] });
  });

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
      app.get("/shade", () => ({ shade: null }), {
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
