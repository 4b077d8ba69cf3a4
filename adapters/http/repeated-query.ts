import { ValidationFailed } from "../../domain/shared/errors.ts";

/**
 * Refuses a query that gives a parameter more than once, naming each such parameter: of
 * `?interval=day&interval=week` neither value is more the caller's intent than the other, and
 * taking one silently answers a question that was not asked.
 */
export function refuseRepeatedQuery(url: string): void {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of new URL(url).searchParams.keys()) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size === 0) return;
  throw new ValidationFailed(
    [...repeated].map((name) => ({ path: `/${name}`, code: "REPEATED", message: "must be given once" })),
  );
}
