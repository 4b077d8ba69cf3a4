/**
 * Responses checked against `openapi/marketplace.json`, the document the marketplace serves: the
 * operation exists, it declares the status (an error status may fall to `default`), the media type
 * is a declared one, and a JSON body validates against the declared schema (ajv, JSON Schema
 * 2020-12 as OpenAPI 3.1 uses it). `call()` and the end-to-end `http()` run it on every response.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Json = any;

const DOCUMENT_ID = "https://marketplace.local/openapi/marketplace.json";
export const marketplaceDocument: Json = JSON.parse(
  readFileSync(new URL("../../openapi/marketplace.json", import.meta.url), "utf8"),
);

export interface DocumentedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Points `#/components/schemas/X` at the registered copy of the components. */
function rewriteRefs(input: Json): Json {
  if (Array.isArray(input)) return input.map(rewriteRefs);
  if (input === null || typeof input !== "object") return input;
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) =>
      key === "$ref" && typeof value === "string"
        ? [key, value.replace("#/components/schemas/", `${DOCUMENT_ID}#/$defs/`)]
        : [key, rewriteRefs(value)],
    ),
  );
}

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addSchema({ $id: DOCUMENT_ID, $defs: rewriteRefs(marketplaceDocument.components?.schemas ?? {}) });

const compiled = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema));
    compiled.set(key, validate);
  }
  return validate;
}

const formatErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);

function deref(node: Json): Json {
  const ref: unknown = node?.$ref;
  if (typeof ref !== "string") return node;
  return ref
    .slice(2)
    .split("/")
    .reduce((at: Json, key) => at?.[key], marketplaceDocument);
}

/** The path template a concrete path matches, literal segments winning over parameters. */
export function operationOf(method: string, path: string): { template: string; operation: Json } | undefined {
  const segments = (path.split("?")[0] ?? "").split("/");
  let best: { template: string; operation: Json; literals: number } | undefined;
  for (const [template, item] of Object.entries<Json>(marketplaceDocument.paths)) {
    const operation = item[method.toLowerCase()];
    const parts = template.split("/");
    if (!operation || parts.length !== segments.length) continue;
    let literals = 0;
    const matches = parts.every((part, i) => {
      if (/^\{[^}]+\}$/.test(part)) return segments[i] !== "";
      literals++;
      return part === segments[i];
    });
    if (matches && (!best || literals > best.literals)) best = { template, operation, literals };
  }
  return best;
}

const mediaTypeOf = (headers: Headers) => headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === "application/json" || mediaType.endsWith("+json");

function bodyProblems(key: string, schema: Json, response: DocumentedResponse): string[] {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [`the body is not JSON: ${response.text.slice(0, 200)}`];
  }
  const validate = validatorFor(key, schema);
  const problems = validate(body) ? [] : formatErrors(validate.errors);
  const status = (body as { status?: unknown } | null)?.status;
  if (mediaTypeOf(response.headers) === "application/problem+json" && status !== response.status) {
    problems.push(`the problem's status ${String(status)} is not the HTTP status`);
  }
  return problems;
}

/** How a response differs from what the document declares for its operation and status. */
export function documentProblems(method: string, path: string, response: DocumentedResponse): string[] {
  // 304 carries no content by definition, whatever the operation.
  if (response.status === 304) return [];
  const found = operationOf(method, path);
  if (!found) {
    // No operation (an unknown route): still the problem body every error has.
    if (mediaTypeOf(response.headers) !== "application/problem+json") return [];
    return bodyProblems("unrouted", { $ref: "#/components/schemas/Problem" }, response);
  }
  const responses: Json = found.operation.responses ?? {};
  const declared = deref(responses[response.status] ?? (response.status >= 400 ? responses.default : undefined));
  if (!declared) return [`status ${response.status} is not declared (${Object.keys(responses).join(", ")})`];
  const content: Record<string, Json> = declared.content ?? {};
  const mediaType = mediaTypeOf(response.headers);
  if (Object.keys(content).length === 0) {
    return response.text === ""
      ? []
      : [`status ${response.status} declares no body, got ${response.text.slice(0, 200)}`];
  }
  if (!mediaType || !(mediaType in content)) {
    return [`content type ${mediaType ?? "(none)"} is not the declared ${Object.keys(content).join(" or ")}`];
  }
  const schema = content[mediaType]?.schema;
  if (!isJson(mediaType) || !schema) return [];
  return bodyProblems(`${method} ${found.template} ${response.status} ${mediaType}`, schema, response);
}

/** Fails, naming the operation, the status and what does not match, unless the document declares the response. */
export function expectMatchesDocument(method: string, path: string, response: DocumentedResponse): void {
  const problems = documentProblems(method, path, response);
  if (problems.length === 0) return;
  const operation = operationOf(method, path);
  const name = operation ? `${method.toUpperCase()} ${operation.template}` : `${method.toUpperCase()} ${path}`;
  throw new Error(
    `${name} answered ${response.status} not as openapi/marketplace.json declares:\n  - ${problems.join("\n  - ")}`,
  );
}
