export type FormValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly FormValue[]
  | { readonly [key: string]: FormValue };

export type FormFields = { readonly [key: string]: FormValue };

/** Brackets stay literal, as Stripe's own clients send them; every other reserved character is escaped. */
const encodeKey = (key: string) => encodeURIComponent(key).replaceAll("%5B", "[").replaceAll("%5D", "]");

/**
 * `application/x-www-form-urlencoded` in Stripe's bracket notation: `a[b][0][c]=1`. `undefined`
 * and `null` are left out, so optional fields can be written inline.
 */
export function encodeForm(fields: FormFields): string {
  const pairs: string[] = [];
  const walk = (key: string, value: FormValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const [index, item] of (value as readonly FormValue[]).entries()) walk(`${key}[${index}]`, item);
    } else if (typeof value === "object") {
      for (const [name, item] of Object.entries(value as FormFields)) walk(`${key}[${name}]`, item);
    } else {
      pairs.push(`${encodeKey(key)}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [name, value] of Object.entries(fields)) walk(name, value);
  return pairs.join("&");
}
