/**
 * From what went over the wire to what the official request types describe. Stripe's form encoding
 * carries only strings, so scalars are read back the way Stripe reads them; the Paddle SDK's request
 * types are camelCase and it snake_cases them on the way out, so wire keys are camelCased back.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Form fields whose values are strings however they look (ids, cursors, free text). */
const STRING_FIELDS = new Set([
  "page",
  "starting_after",
  "ending_before",
  "query",
  "client_reference_id",
  "description",
  "name",
  "nickname",
  "lookup_key",
  "email",
  "phone",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "unit_amount_decimal",
]);

/** Stripe's decoded form: integers and decimals as numbers, `true`/`false` as booleans, metadata as written. */
export function stripeScalars(value: unknown, key = "", inMetadata = false): unknown {
  if (Array.isArray(value)) return value.map((item) => stripeScalars(item, key, inMetadata));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, stripeScalars(item, name, inMetadata || name === "metadata")]),
    );
  }
  if (typeof value !== "string" || inMetadata || STRING_FIELDS.has(key)) return value;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value === "true" || value === "false") return value === "true";
  return value;
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** Paddle wire keys that are not snake_case: the SDK would never send them. */
export function nonSnakeKeys(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => nonSnakeKeys(item, `${path}[${index}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const here = path ? `${path}.${key}` : key;
    if (key === "custom_data" && path === "") return [];
    return [...(/[A-Z]/.test(key) ? [here] : []), ...nonSnakeKeys(item, here)];
  });
}

/** The inverse of the Paddle SDK's `convertToSnakeCase`: every key camelCased, top-level custom_data kept. */
export function paddleCamel(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((item) => paddleCamel(item, false));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      top && key === "custom_data" ? ["customData", item] : [camel(key), paddleCamel(item, false)],
    ),
  );
}

export type { Json };
