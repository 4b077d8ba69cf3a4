import { describe, expect, test } from "bun:test";
import { unwrapSchema } from "@elysiajs/openapi/openapi";
import { t } from "elysia";
import { named } from "../../../adapters/http/openapi-models.ts";
import { OPENAPI_VERSION, withNamedModels } from "../../../adapters/http/openapi-named-models.ts";
import { oneOf } from "../../../adapters/http/shared-schemas.ts";

type Json = any;

const Tone = named("TestTone", oneOf(["warm", "cool"]));
const Swatch = named("TestToneSwatch", t.Object({ tone: Tone, hex: t.String() }));
const Board = named(
  "TestToneBoard",
  t.Object({ main: Swatch, accent: t.Nullable(Swatch), fallback: t.Nullable(Tone), tones: t.Array(Tone) }),
);

/** A document whose one operation answers `schema` as the OpenAPI plugin maps it. */
const documentAnswering = (schema: unknown): Json => ({
  paths: {
    "/boards": {
      get: {
        responses: {
          200: {
            content: { "application/json": { schema: unwrapSchema(schema as never, {}, "output", OPENAPI_VERSION) } },
          },
        },
      },
    },
  },
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("named models in the document", () => {
  test("a named model is referenced where used and written once under components.schemas", () => {
    const document = withNamedModels(documentAnswering(t.Object({ board: Board, other: t.Nullable(Board) })));
    const answer = (document.paths as Json)["/boards"].get.responses["200"].content["application/json"].schema;
    expect(answer.properties.board).toEqual(ref("TestToneBoard"));
    expect(answer.properties.other).toEqual({ anyOf: [ref("TestToneBoard"), { type: "null" }] });
    expect(Object.keys((document.components as Json).schemas)).toEqual(["TestTone", "TestToneBoard", "TestToneSwatch"]);
  });

  test("a component is written from its declaration: the enums it holds stay references", () => {
    // As served: JSON, without TypeBox's symbols (`nullable` goes in the next correction).
    const { schemas } = JSON.parse(JSON.stringify(withNamedModels(documentAnswering(Board)).components));
    expect(schemas.TestToneBoard.properties).toMatchObject({
      main: ref("TestToneSwatch"),
      accent: { anyOf: [ref("TestToneSwatch"), { type: "null" }] },
      fallback: { anyOf: [ref("TestTone"), { type: "null" }] },
      tones: { type: "array", items: ref("TestTone") },
    });
    expect(schemas.TestToneSwatch.properties.tone).toEqual(ref("TestTone"));
    expect(schemas.TestTone).toEqual({ type: "string", enum: ["warm", "cool"] });
  });
});
