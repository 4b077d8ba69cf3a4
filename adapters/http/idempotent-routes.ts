/** The methods that change something: the ones an `Idempotency-Key` makes safe to retry. */
export const MUTATING_METHODS: readonly string[] = ["POST", "PUT", "PATCH", "DELETE"];

/**
 * Mutating routes under `/api` that keys do not cover, and why (docs/decisions/idempotency-keys.md):
 * gateways post webhooks, deduplicated by their event ids; sign-in, registration, reset and
 * verification links answer with tokens or act on a token in the body, and a log-out-everywhere
 * revokes the very token a retry would carry.
 */
export const NOT_IDEMPOTENT_PREFIXES: readonly string[] = ["/api/webhooks/", "/api/auth/"];

/** Whether `Idempotency-Key` is honoured on `method` `path` (a concrete path or a route template). */
export function takesIdempotencyKey(method: string, path: string): boolean {
  return (
    MUTATING_METHODS.includes(method.toUpperCase()) &&
    path.startsWith("/api/") &&
    !NOT_IDEMPOTENT_PREFIXES.some((prefix) => path.startsWith(prefix))
  );
}

interface Template {
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  /** Literal segments: `/products/pricing-mappings/bulk` wins over `/products/:id`. */
  readonly literals: number;
}

/**
 * The route template (`POST /api/admin/orders/:id/refund`) a request's method and path fall under,
 * among `routes` (Elysia's, `:name` parameters); keys are kept per template, so the same key sent
 * to two routes names two requests.
 */
export function createRouteTemplates(routes: () => readonly { method: string; path: string }[]) {
  let templates: Template[] | undefined;
  const build = () =>
    routes()
      .filter((route) => takesIdempotencyKey(route.method, route.path))
      .map((route) => {
        const segments = route.path.split("/");
        const source = segments
          .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/");
        return {
          method: route.method.toUpperCase(),
          template: route.path,
          pattern: new RegExp(`^${source}$`),
          literals: segments.filter((segment) => !segment.startsWith(":")).length,
        };
      })
      .sort((a, b) => b.literals - a.literals);
  return (method: string, path: string): string | undefined => {
    templates ??= build();
    const found = templates.find((route) => route.method === method && route.pattern.test(path));
    return found ? `${found.method} ${found.template}` : undefined;
  };
}
