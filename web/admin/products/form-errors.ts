import { ApiProblem, messageOf, type Schemas } from "../../shared/api.ts";
import { humanize } from "../../shared/format.ts";

type FieldError = Schemas["FieldError"];

/** The API's refusal of a form, read field by field. */
export interface FormErrors {
  /** The message for the field at `pointer`, worded with its label: "base_url is required". */
  at(pointer: string, label: string): string | undefined;
  /** The same for a list field, whose items are refused at `pointer/0`, `pointer/1`… */
  within(pointer: string, label: string): string | undefined;
  /** How many fields the API refused. */
  readonly count: number;
  /** What the API said about the whole form ("The product is not valid."). */
  readonly summary: string | undefined;
  /** The refusals of fields the form does not show, to say in one alert. */
  unplaced(shown: readonly string[]): string[];
}

/** Fields the page refuses before calling the API, read the same way as the API's refusal. */
export class FormRefusal extends Error {
  constructor(
    message: string,
    readonly errors: readonly FieldError[],
  ) {
    super(message);
  }
}

const worded = (label: string, error: FieldError | undefined) => error && `${label} ${error.message}`;

/** `/fulfillment_config/management/foo` → `fulfillment config › management › foo`. */
const placeOf = (path: string) =>
  path
    .split("/")
    .filter(Boolean)
    .map((part) => humanize(part))
    .join(" › ") || "The form";

export function formErrorsOf(error: unknown): FormErrors {
  const errors =
    error instanceof ApiProblem ? (error.problem.errors ?? []) : error instanceof FormRefusal ? error.errors : [];
  const inside = (pointer: string, path: string) => path === pointer || path.startsWith(`${pointer}/`);
  return {
    at: (pointer, label) =>
      worded(
        label,
        errors.find((e) => e.path === pointer),
      ),
    within: (pointer, label) =>
      worded(
        label,
        errors.find((e) => inside(pointer, e.path)),
      ),
    count: errors.length,
    summary: error === undefined ? undefined : messageOf(error),
    unplaced: (shown) =>
      errors
        .filter((e) => !shown.some((pointer) => inside(pointer, e.path)))
        .map((e) => `${placeOf(e.path)} ${e.message}`),
  };
}
