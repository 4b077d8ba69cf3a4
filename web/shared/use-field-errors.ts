import { useState } from "preact/hooks";
import { ApiProblem } from "./api.ts";

/**
 * A form's field errors by JSON pointer, from a refusal that names them: `take` is `useSubmit`'s
 * `handled`, true when a field shows the error so the form need not say it again.
 */
export function useFieldErrors(paths: readonly string[]) {
  const [errors, setErrors] = useState<Readonly<Record<string, string | undefined>>>({});
  const take = (error: unknown) => {
    if (!(error instanceof ApiProblem)) return false;
    const found = Object.fromEntries(paths.map((path) => [path, error.fieldError(path)]));
    setErrors(found);
    return Object.values(found).some((value) => value !== undefined);
  };
  return { errors, clear: () => setErrors({}), take };
}
