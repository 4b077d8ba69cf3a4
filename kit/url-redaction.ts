/** Names of path parameters and query keys whose value grants access: it never reaches a log. */
const SENSITIVE_NAME = /token|key|signature|secret|password|sig$|^access$/i;
export const REDACTED = "[redacted]";

interface Rule {
  readonly pattern: RegExp;
  /** Indexes (in the split path) of the segments to hide. */
  readonly positions: readonly number[];
}

/** A rule per route template with a sensitive parameter, e.g. `/api/downloads/:token`. */
function ruleFor(template: string): Rule | undefined {
  const segments = template.split("/");
  const positions = segments.flatMap((segment, index) =>
    segment.startsWith(":") && SENSITIVE_NAME.test(segment) ? [index] : [],
  );
  if (positions.length === 0) return undefined;
  const source = segments
    .map((segment) => (segment.startsWith(":") ? "[^/]*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  // A prefix match: a longer, unrouted path under a sensitive one (a 404) is hidden too.
  return { pattern: new RegExp(`^${source}(?:/|$)`), positions };
}

function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const separator = pair.indexOf("=");
      if (separator < 0) return pair;
      const name = decodeURIComponentSafely(pair.slice(0, separator));
      return SENSITIVE_NAME.test(name) ? `${pair.slice(0, separator)}=${REDACTED}` : pair;
    })
    .join("&");
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Hides the path segments and query values that grant access (a download token, anything named
 * token, key, signature or secret) in a request target before it is logged. The routes are read
 * when the first target is redacted, so the redactor can be made before the app that has them.
 */
export function createUrlRedactor(routeTemplates: () => readonly string[]) {
  let rules: readonly Rule[] | undefined;
  return function redactTarget(target: string): string {
    if (rules === undefined) {
      const templates = routeTemplates();
      if (templates.length === 0) return redactWith([], target);
      rules = templates.flatMap((template) => ruleFor(template) ?? []);
    }
    return redactWith(rules, target);
  };
}

function redactWith(rules: readonly Rule[], target: string): string {
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? "" : `?${redactQuery(target.slice(queryAt + 1))}`;
  const rule = rules.find((candidate) => candidate.pattern.test(path));
  if (!rule) return path + query;
  const segments = path.split("/");
  for (const position of rule.positions) if (position < segments.length) segments[position] = REDACTED;
  return segments.join("/") + query;
}
