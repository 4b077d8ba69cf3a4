import { describe, expect, test } from "bun:test";
import { isSecretLikeKey, type ObjectSpec, objectSchema, validateObject } from "../../../domain/catalog/config-spec.ts";

const SPEC: ObjectSpec = {
  queue: { kind: "text", maxLength: 20, required: true, description: "Queue." },
  mode: { kind: "enum", values: ["fast", "slow"], required: false, description: "Mode." },
  retries: { kind: "integer", min: 1, max: 5, required: true, description: "Retries." },
  nested: {
    kind: "object",
    required: false,
    description: "Nested.",
    fields: { on: { kind: "boolean", required: true, description: "On." } },
  },
};

describe("objectSchema", () => {
  test("describes required keys, closed properties, enums and integer bounds", () => {
    expect(objectSchema(SPEC)).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["queue", "retries"],
      properties: {
        queue: { description: "Queue.", type: "string", minLength: 1, maxLength: 20 },
        mode: { description: "Mode.", type: "string", enum: ["fast", "slow"] },
        retries: { description: "Retries.", type: "integer", minimum: 1, maximum: 5 },
        nested: {
          description: "Nested.",
          type: "object",
          additionalProperties: false,
          required: ["on"],
          properties: { on: { description: "On.", type: "boolean" } },
        },
      },
    });
  });

  test("copies enum values so the schema cannot alter the spec", () => {
    const schema = objectSchema(SPEC) as { properties: { mode: { enum: string[] } } };
    schema.properties.mode.enum.push("tampered");
    expect(validateObject(SPEC, { queue: "q", retries: 1, mode: "tampered" }, "")).toEqual([
      { path: "/mode", code: "INVALID_ENUM", message: "must be one of fast, slow" },
    ]);
  });
});

describe("validateObject", () => {
  test("accepts a value that satisfies the spec", () => {
    expect(validateObject(SPEC, { queue: "ops", mode: "slow", retries: 5, nested: { on: false } }, "/cfg")).toEqual([]);
  });

  // Each value is wrapped in a row: a bare `[]` row would be spread as no arguments and Bun would pass a done callback.
  test.each<[unknown]>([[null], [[]], ["queue"], [42], [undefined]])("refuses the non-object %p", (value) => {
    expect(validateObject(SPEC, value, "/cfg")).toEqual([
      { path: "/cfg", code: "INVALID_OBJECT", message: "must be a JSON object" },
    ]);
  });

  test("reports nested problems under the nested path", () => {
    const errors = validateObject(SPEC, { queue: "ops", retries: 6, nested: { on: "yes" } }, "/cfg");
    expect(errors.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "/cfg/retries", code: "OUT_OF_RANGE" },
      { path: "/cfg/nested/on", code: "INVALID_BOOLEAN" },
    ]);
  });

  test("treats null as absent", () => {
    const errors = validateObject(SPEC, { queue: null, retries: 1, mode: null }, "/cfg");
    expect(errors.map(({ path, code }) => ({ path, code }))).toEqual([{ path: "/cfg/queue", code: "REQUIRED" }]);
  });
});

test.each<[string, boolean]>([
  ["credentials_ref", false],
  ["base_url", false],
  ["credentials", true],
  ["Authorization", true],
  ["private-key", true],
  ["webhook_secret", true],
])("isSecretLikeKey(%p) is %p", (key, secret) => {
  expect(isSecretLikeKey(key)).toBe(secret);
});
