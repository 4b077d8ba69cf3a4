import type { FieldError } from "../shared/domain-error.ts";

export type OptionValue = string | number | boolean;
export type SelectedOptions = Readonly<Record<string, OptionValue>>;

const KEY = /^[a-z][a-z0-9_]{0,39}$/;
export const MAX_OPTIONS = 20;

/** Options a customer picks per item (a workspace name, a domain): flat, small, scalar. */
export function checkSelectedOptions(options: unknown, path: string, errors: FieldError[]): SelectedOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    errors.push({ path, code: "INVALID_OPTIONS", message: "must be an object of option names to values" });
    return {};
  }
  const entries = Object.entries(options as Record<string, unknown>);
  if (entries.length > MAX_OPTIONS)
    errors.push({ path, code: "TOO_MANY_OPTIONS", message: `at most ${MAX_OPTIONS} options` });
  const checked: Record<string, OptionValue> = {};
  for (const [key, value] of entries) {
    const at = `${path}/${key}`;
    if (!KEY.test(key))
      errors.push({ path: at, code: "INVALID_OPTION_NAME", message: "must be 1 to 40 of a-z, 0-9 and _" });
    else if (typeof value === "string" ? value.length > 200 : typeof value !== "number" && typeof value !== "boolean") {
      errors.push({
        path: at,
        code: "INVALID_OPTION_VALUE",
        message: "must be a string of at most 200 characters, a number or a boolean",
      });
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      errors.push({ path: at, code: "INVALID_OPTION_VALUE", message: "must be a finite number" });
    } else checked[key] = typeof value === "string" ? value.trim() : (value as number | boolean);
  }
  return checked;
}
