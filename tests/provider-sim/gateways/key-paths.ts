type JsonType = "null" | "array" | "object" | "string" | "number" | "boolean";

const typeOf = (value: unknown): JsonType =>
  value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as JsonType);

/**
 * Every key path of `fixture` that `actual` lacks or holds with another JSON type. Arrays are
 * compared element by element against the fixture's first element (`lines.data[].period.end`). A
 * null in the fixture only asks for the key; a path in `nullable` may be null in `actual` because
 * the gateway's own types declare it so (e.g. a subscription checkout's `payment_intent`).
 */
export function keyPathMismatches(
  fixture: unknown,
  actual: unknown,
  nullable: readonly string[] = [],
  path = "",
): string[] {
  if (fixture === null) return [];
  const expected = typeOf(fixture);
  const found = typeOf(actual);
  if (found === "null" && nullable.includes(path)) return [];
  if (expected !== found) return [`${path || "(root)"}: expected ${expected}, got ${found}`];
  if (expected === "array") {
    const [sample] = fixture as unknown[];
    if (sample === undefined) return [];
    const items = actual as unknown[];
    if (items.length === 0) return [`${path}: expected entries, got an empty list`];
    return items.flatMap((item) => keyPathMismatches(sample, item, nullable, `${path}[]`));
  }
  if (expected !== "object") return [];
  const object = actual as Record<string, unknown>;
  return Object.entries(fixture as Record<string, unknown>).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    return key in object ? keyPathMismatches(value, object[key], nullable, at) : [`${at}: missing`];
  });
}
