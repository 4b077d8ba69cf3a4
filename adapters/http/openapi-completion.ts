import { Kind, OptionalKind } from "@sinclair/typebox";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import { createSchemaRegistry, type Json, type SchemaRegistry } from "./openapi-schema-registry.ts";
import { ProblemSchema } from "./problem-schema.ts";
import { rateLimitGroup } from "./rate-limit.ts";

/** What the document needs of a route: its declared schemas and documentation. */
export interface DocumentedRoute {
  readonly method: string;
  readonly path: string;
  readonly hooks?: {
    readonly body?: unknown;
    readonly query?: unknown;
    readonly params?: unknown;
    readonly headers?: unknown;
    readonly response?: unknown;
    readonly detail?: Json;
  };
}

interface ErrorResponse {
  readonly name: string;
  readonly description: string;
  readonly retryAfter?: true;
}

const ERRORS: Record<number, ErrorResponse> = {
  400: {
    name: "BadRequest",
    description: "The request cannot be read: malformed JSON or UTF-8, a NUL character, or a webhook signature",
  },
  401: { name: "Unauthorized", description: "A valid bearer token is required" },
  403: { name: "Forbidden", description: "The token's role may not do this, or its account is disabled" },
  404: { name: "NotFound", description: "Nothing with this identifier is visible to the caller" },
  413: { name: "ContentTooLarge", description: "The body exceeds the size limit" },
  422: { name: "ValidationFailed", description: "The input breaks the schema or a domain rule; `errors` names fields" },
  429: { name: "TooManyRequests", description: "Rate limited; retry after Retry-After seconds", retryAfter: true },
  503: {
    name: "ServiceUnavailable",
    description: "Not ready, or the database cannot be reached; retry after Retry-After seconds",
    retryAfter: true,
  },
};
const OTHER_ERROR: ErrorResponse = {
  name: "Error",
  description: "Any other failure, such as a conflict or a failing upstream",
};

const SUCCESS: Record<string, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No content" };

const problemContent = (registry: SchemaRegistry) => ({
  [PROBLEM_CONTENT_TYPE]: { schema: registry.schema(ProblemSchema) },
});

function errorComponents(registry: SchemaRegistry): Json {
  const retryAfter = { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 0 } } };
  const components: Json = {};
  for (const { name, description, retryAfter: retry } of [...Object.values(ERRORS), OTHER_ERROR]) {
    components[name] = { description, ...(retry ? { headers: retryAfter } : {}), content: problemContent(registry) };
  }
  return components;
}

/** Which problems a route can answer, from what it declares: auth, inputs, path, rate limit. */
function errorResponses(route: DocumentedRoute, readsBody: boolean): Json {
  const hooks = route.hooks ?? {};
  const statuses = [400, 503];
  if (readsBody) statuses.push(413);
  if (Array.isArray(hooks.detail?.security) && hooks.detail.security.length > 0) statuses.push(401, 403);
  if (route.path.includes("/:")) statuses.push(404);
  if (readsBody || hooks.query || hooks.params || hooks.headers) statuses.push(422);
  if (rateLimitGroup(route.path)) statuses.push(429);
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    ...Object.fromEntries(statuses.map((status) => [status, ref(ERRORS[status]?.name ?? OTHER_ERROR.name)])),
    default: ref(OTHER_ERROR.name),
  };
}

type TypeBoxJson = Json & { [Kind]?: string; [OptionalKind]?: string };

const isTypeBox = (value: unknown): value is TypeBoxJson =>
  typeof value === "object" && value !== null && Kind in value;

function mediaTypeOf(schema: TypeBoxJson): string | undefined {
  if (schema[Kind] === "Void") return undefined;
  if (schema.type !== "string") return "application/json";
  return typeof schema.contentMediaType === "string" ? schema.contentMediaType : "text/plain";
}

/** A response schema as a response object; redirects say where they lead. */
function responseOf(status: string, schema: TypeBoxJson, registry: SchemaRegistry): Json {
  const mediaType = mediaTypeOf(schema);
  const description = typeof schema.description === "string" ? schema.description : (SUCCESS[status] ?? "Success");
  return {
    description,
    ...(status.startsWith("3") ? { headers: { Location: { required: true, schema: { type: "string" } } } } : {}),
    ...(mediaType ? { content: { [mediaType]: { schema: registry.schema(schema) } } } : {}),
  };
}

/** Documentation written by hand (`detail.responses`, `detail.requestBody`) with its TypeBox schemas mapped. */
function withMappedContent(documented: unknown, registry: SchemaRegistry): Json {
  const object = documented as Json;
  const content = object.content as Record<string, Json> | undefined;
  if (!content) return object;
  const mapped = Object.entries(content).map(([type, media]) => [
    type,
    isTypeBox(media.schema) ? { ...media, schema: registry.schema(media.schema) } : media,
  ]);
  return { ...object, content: Object.fromEntries(mapped) };
}

function successResponses(route: DocumentedRoute, registry: SchemaRegistry): Json {
  const declared = route.hooks?.response;
  const byStatus = isTypeBox(declared) ? { 200: declared } : ((declared ?? {}) as Record<string, unknown>);
  const responses: Json = {};
  for (const [status, schema] of Object.entries(byStatus)) {
    if (isTypeBox(schema)) responses[status] = responseOf(status, schema, registry);
  }
  const documented = (route.hooks?.detail?.responses ?? {}) as Record<string, unknown>;
  for (const [status, response] of Object.entries(documented))
    responses[status] = withMappedContent(response, registry);
  return responses;
}

function completeOperation(operation: Json, route: DocumentedRoute, registry: SchemaRegistry): Json {
  const body = route.hooks?.body;
  const documentedBody = route.hooks?.detail?.requestBody;
  const requestBody = isTypeBox(body)
    ? {
        required: body[OptionalKind] !== "Optional",
        content: { "application/json": { schema: registry.schema(body) } },
      }
    : documentedBody && withMappedContent(documentedBody, registry);
  // What a route documents by hand says more than the generic problem of the same status.
  const responses = { ...errorResponses(route, Boolean(requestBody)), ...successResponses(route, registry) };
  const { requestBody: _generated, ...rest } = operation;
  return { ...rest, ...(requestBody ? { requestBody } : {}), responses };
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/**
 * The plugin's document made whole, from the routes' own schemas and `detail`: what the plugin
 * cannot say (problem responses, named models as components, a webhook's raw body documented by
 * its event schema) and what it says wrongly for OpenAPI 3.1 (`nullable: true`, enums without
 * null) or for this server (every body is read as JSON, not also as a form or multipart).
 */
export function completeApiDocument(generated: Json, routes: readonly DocumentedRoute[]): Json {
  const registry = createSchemaRegistry();
  const generatedPaths = (generated.paths ?? {}) as Record<string, Record<string, Json>>;
  const paths = Object.fromEntries(Object.entries(generatedPaths).map(([path, item]) => [path, { ...item }]));
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const item = paths[route.path.replace(/:([^/]+)/g, "{$1}")];
    const operation = item?.[method];
    if (!item || !operation || !METHODS.includes(method) || route.hooks?.detail?.hide) continue;
    item[method] = completeOperation(operation, route, registry);
  }
  const responses = errorComponents(registry);
  const components = (generated.components ?? {}) as Json;
  return {
    ...generated,
    paths,
    components: { ...components, schemas: { ...(components.schemas as Json), ...registry.components() }, responses },
  };
}
