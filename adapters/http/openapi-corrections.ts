import { Kind, OptionalKind } from "@sinclair/typebox";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import { takesIdempotencyKey } from "./idempotent-routes.ts";
import { type Json, withNamedModels } from "./openapi-named-models.ts";
import { ProblemSchema } from "./problem-schema.ts";
import { rateLimitGroup } from "./rate-limit.ts";

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
  409: {
    name: "Conflict",
    description: "A conflict with the current state, or a request under the same Idempotency-Key still running",
  },
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

/** The shared problem+json responses every operation refers to (the plugin knows nothing of `onError`). */
function problemComponents(): Json {
  const retryAfter = { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 0 } } };
  const content = { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } };
  const components: Json = {};
  for (const { name, description, retryAfter: retry } of [...Object.values(ERRORS), OTHER_ERROR]) {
    components[name] = { description, ...(retry ? { headers: retryAfter } : {}), content };
  }
  return components;
}

type Parameter = { readonly in?: string; readonly schema?: object };

/**
 * Which problems an operation can answer, from what it declares: its token, its inputs, a path
 * parameter, the rate limit of its path. A path parameter the route declares a schema for comes
 * from TypeBox (it carries TypeBox's kind); one it does not is the plugin's bare string.
 */
function problemResponses(path: string, operation: Json): Json {
  const parameters = (operation.parameters ?? []) as Parameter[];
  const readsBody = Boolean(operation.requestBody);
  const checksInput = parameters.some(
    (parameter) => parameter.in !== "path" || (parameter.schema !== undefined && Kind in parameter.schema),
  );
  const statuses = [400, 503];
  const keyed = parameters.some((parameter) => parameter === IDEMPOTENCY_KEY);
  if (keyed) statuses.push(409, 422);
  if (readsBody) statuses.push(413);
  if (Array.isArray(operation.security) && operation.security.length > 0) statuses.push(401, 403);
  if (path.includes("{")) statuses.push(404);
  if (readsBody || checksInput) statuses.push(422);
  if (rateLimitGroup(path.replace(/\{([^/]+)\}/g, ":$1"))) statuses.push(429);
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    ...Object.fromEntries(statuses.map((status) => [status, ref(ERRORS[status]?.name ?? OTHER_ERROR.name)])),
    default: ref(OTHER_ERROR.name),
  };
}

/**
 * A success response as the plugin writes it, said in words ("Created", where the plugin writes
 * "Response for status 201") and with a text answer under the media type its schema names (the
 * plugin files every string under `text/plain`).
 */
function successResponse(status: string, response: Json): Json {
  const description =
    response.description === `Response for status ${status}` ? (SUCCESS[status] ?? "Success") : response.description;
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  const text = content?.["text/plain"]?.schema;
  const mediaType = typeof text?.contentMediaType === "string" ? text.contentMediaType : undefined;
  return {
    ...response,
    description,
    ...(content && mediaType ? { content: { [mediaType]: { schema: text } } } : {}),
  };
}

type MediaType = { readonly schema?: { readonly [OptionalKind]?: string } };

/**
 * Every body is read as JSON (`withCheckedBody` turns a form into its JSON object before
 * routing), so only `application/json` is documented; the plugin also lists form and multipart,
 * each with the same schema. The plugin requires every body; one declared `t.Optional` (its copy
 * keeps TypeBox's mark) may be left out.
 */
function jsonRequestBody(requestBody: Json): Json {
  const [media] = Object.values(requestBody.content as Record<string, MediaType>);
  const optional = media?.schema?.[OptionalKind] === "Optional";
  return { ...requestBody, required: !optional, content: { "application/json": media } };
}

/** Every mutating route but webhooks and sign-in takes a key (idempotent-routes.ts). */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first answer under the key is kept for 24 hours and replayed byte for byte with `Idempotent-Replayed: true`; the key with another request is `422` `IDEMPOTENCY_KEY_REUSED`, while the first still runs `409` `IDEMPOTENT_REQUEST_IN_PROGRESS`. At least 32 characters without a bearer token (a V4 UUID).",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[!-~]+$" },
};

function withIdempotencyKey(path: string, method: string, operation: Json): Json {
  if (!takesIdempotencyKey(method, path)) return operation;
  const parameters = ((operation.parameters ?? []) as { name?: string }[]).filter(
    (parameter) => parameter.name?.toLowerCase() !== "idempotency-key",
  );
  return { ...operation, parameters: [...parameters, IDEMPOTENCY_KEY] };
}

function correctOperation(path: string, method: string, generated: Json): Json {
  const operation = withIdempotencyKey(path, method, generated);
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Json>).map(
    ([status, response]) => [status, successResponse(status, response)] as const,
  );
  const requestBody = operation.requestBody as Json | undefined;
  return {
    ...operation,
    ...(requestBody ? { requestBody: jsonRequestBody(requestBody) } : {}),
    // What a route documents itself says more than the generic problem of the same status.
    responses: { ...problemResponses(path, operation), ...Object.fromEntries(responses) },
  };
}

/**
 * OpenAPI 3.1 has no `nullable` (a type list says it; Elysia's `t.Nullable` writes both), and an
 * enum that may be null must list null (the plugin folds `anyOf: [enum, null]` into one schema
 * without it). JSON drops TypeBox's symbols.
 */
function asOpenApi31(document: Json): Json {
  return JSON.parse(
    JSON.stringify(document, (key, value) => {
      if (key === "nullable" && value === true) return undefined;
      const nullableEnum = Array.isArray(value?.type) && value.type.includes("null") && Array.isArray(value.enum);
      return nullableEnum && !value.enum.includes(null) ? { ...value, enum: [...value.enum, null] } : value;
    }),
  );
}

/**
 * The plugin's document, corrected where the plugin cannot know this server (problem responses,
 * JSON-only bodies, named models) or writes what OpenAPI 3.1 does not allow. Each operation is
 * the plugin's own: nothing here reads the routes.
 */
export function correctApiDocument(generated: Json): Json {
  const paths = Object.fromEntries(
    Object.entries((generated.paths ?? {}) as Record<string, Record<string, Json>>).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [method, correctOperation(path, method, operation)]),
      ),
    ]),
  );
  const components = { ...(generated.components as Json), responses: problemComponents() };
  return asOpenApi31(withNamedModels({ ...generated, paths, components }));
}
