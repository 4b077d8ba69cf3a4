/** A decoded `application/x-www-form-urlencoded` body in Stripe's bracket notation. */
export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/** `line_items[0][price_data][currency]` → ["line_items", "0", "price_data", "currency"]; undefined when malformed. */
function segmentsOf(key: string): string[] | undefined {
  const match = KEY.exec(key);
  if (!match?.[1]) return undefined;
  const rest = match[2] ?? "";
  return [match[1], ...Array.from(rest.matchAll(/\[([^[\]]*)\]/g), (part) => part[1] ?? "")];
}

function assign(target: FormObject, segments: string[], value: string): boolean {
  let node = target;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] === "" ? String(Object.keys(node).length) : (segments[i] as string);
    if (i === segments.length - 1) {
      if (typeof node[segment] === "object") return false;
      node[segment] = value;
      return true;
    }
    const next = node[segment] ?? {};
    if (typeof next !== "object" || Array.isArray(next)) return false;
    node[segment] = next;
    node = next;
  }
  return true;
}

/** Objects whose keys are all array indices become arrays, ordered by index. */
function withArrays(value: FormValue): FormValue {
  if (typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, withArrays(value[key] as FormValue)] as const);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return Object.fromEntries(entries);
}

/**
 * Decodes a form body; a repeated scalar key keeps its last value. Returns undefined when a key is
 * malformed or a key is used both as a value and as a container.
 */
export function decodeFormBody(body: string): FormObject | undefined {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const segments = segmentsOf(key);
    if (!segments || !assign(root, segments, value)) return undefined;
  }
  return withArrays(root) as FormObject;
}
