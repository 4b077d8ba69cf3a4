/**
 * Response conformance against `openapi/provider.yaml`, the source of truth of the provider contract.
 *
 * `expectConforms(method, pathTemplate, response)` checks that the operation exists, that it declares the
 * response status, that the content type is the declared media type, that declared headers validate, and that
 * the body validates against the declared schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 */
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Json = any;

const SPEC_PATH = new URL("../../../openapi/provider.yaml", import.meta.url);
const SCHEMAS_ID = "https://contract.marketplace.local/openapi/provider.yaml";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export const providerSpec: Json = Bun.YAML.parse(readFileSync(SPEC_PATH, "utf8"));

/** What a response must look like to be checked: the fields of the contract client's answer. */
export interface CheckedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly text: string;
}

/** Resolves a local reference such as `#/components/responses/NotFound` in the YAML document. */
function resolveLocal(ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`only local references are supported, got ${ref}`);
  let node: Json = providerSpec;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = node?.[key];
    if (node === undefined) throw new Error(`unresolvable reference ${ref} in openapi/provider.yaml`);
  }
  return node;
}

/** Follows `$ref` chains of OpenAPI objects (responses, parameters, headers), not of schemas. */
function deref(node: Json): Json {
  let current = node;
  for (let depth = 0; current && typeof current.$ref === "string"; depth++) {
    if (depth > 20) throw new Error(`reference loop at ${node.$ref}`);
    current = resolveLocal(current.$ref);
  }
  return current;
}

/** Points schema references at the registered copy of `components/schemas`. */
function rewriteSchemaRefs(input: Json): Json {
  if (Array.isArray(input)) return input.map((item) => rewriteSchemaRefs(item));
  if (input === null || typeof input !== "object") return input;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith("#/components/schemas/"))
        throw new Error(`schema reference ${value} does not point into components/schemas`);
      out[key] = `${SCHEMAS_ID}#/$defs/${value.slice("#/components/schemas/".length)}`;
    } else {
      out[key] = rewriteSchemaRefs(value);
    }
  }
  return out;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
// OpenAPI 3.1 schema-object keywords that are not JSON Schema vocabulary.
ajv.addKeyword("example");
ajv.addKeyword("discriminator");
ajv.addKeyword("xml");
ajv.addKeyword("externalDocs");
ajv.addSchema({
  $id: SCHEMAS_ID,
  $defs: Object.fromEntries(
    Object.entries<Json>(providerSpec.components?.schemas ?? {}).map(([name, schema]) => [
      name,
      rewriteSchemaRefs(schema),
    ]),
  ),
});

const compiled = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteSchemaRefs(schema));
    compiled.set(key, validate);
  }
  return validate;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (error) => `${error.instancePath || "(root)"} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
  );
}

/** The YAML operation object for a method and path template, or undefined. */
export function findOperation(method: string, pathTemplate: string): Json | undefined {
  return providerSpec.paths?.[pathTemplate]?.[method.toLowerCase()];
}

/** Every `(method, path template)` the YAML declares. */
export function declaredOperations(): { method: string; pathTemplate: string; operationId: string }[] {
  const out: { method: string; pathTemplate: string; operationId: string }[] = [];
  for (const [pathTemplate, item] of Object.entries<Json>(providerSpec.paths ?? {}))
    for (const method of HTTP_METHODS)
      if (item[method]) out.push({ method: method.toUpperCase(), pathTemplate, operationId: item[method].operationId });
  return out;
}

/**
 * The path template of the YAML that a concrete path (query string allowed) matches, literal segments
 * winning over parameters; undefined when none does.
 */
export function matchPathTemplate(method: string, path: string): string | undefined {
  const segments = (path.split("?")[0] ?? "").split("/");
  let best: { template: string; literals: number } | undefined;
  for (const [template, item] of Object.entries<Json>(providerSpec.paths ?? {})) {
    if (!item[method.toLowerCase()]) continue;
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    let literals = 0;
    let matches = true;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const segment = segments[i] as string;
      if (/^\{[^}]+\}$/.test(part)) {
        if (segment === "") matches = false;
      } else if (part === segment) {
        literals++;
      } else {
        matches = false;
      }
      if (!matches) break;
    }
    if (matches && (!best || literals > best.literals)) best = { template, literals };
  }
  return best?.template;
}

function mediaTypeOf(headers: Headers): string | undefined {
  return headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() || undefined;
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/** The violations of the YAML by one response; empty when it conforms. */
export function conformanceProblems(method: string, pathTemplate: string, response: CheckedResponse): string[] {
  const operation = findOperation(method, pathTemplate);
  if (!operation) return [`openapi/provider.yaml declares no operation ${method.toUpperCase()} ${pathTemplate}`];
  const responses: Record<string, Json> = operation.responses ?? {};
  const declaredKey = [String(response.status), `${String(response.status)[0]}XX`, "default"].find(
    (key) => key in responses,
  );
  if (!declaredKey)
    return [
      `status ${response.status} is not declared (declared: ${Object.keys(responses).join(", ")}); body: ${response.text.slice(0, 300)}`,
    ];
  const declared = deref(responses[declaredKey]);
  const problems: string[] = [];

  for (const [name, rawHeader] of Object.entries<Json>(declared.headers ?? {})) {
    const header = deref(rawHeader);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const type = header.schema.type;
    const coerced: unknown =
      (type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    const validate = validatorFor(`${method} ${pathTemplate} ${declaredKey} header ${name}`, header.schema);
    if (!validate(coerced))
      problems.push(...formatErrors(validate.errors).map((error) => `header ${name}=${value}: ${error}`));
  }

  const content: Record<string, Json> | undefined = declared.content;
  if (!content || Object.keys(content).length === 0) {
    if (response.text.length > 0) problems.push(`status ${response.status} declares no body but one was sent`);
    return problems;
  }
  const mediaType = mediaTypeOf(response.headers);
  const declaredTypes = Object.keys(content);
  if (!mediaType || !(mediaType in content)) {
    problems.push(
      `content type ${mediaType ?? "(none)"} is not the declared ${declaredTypes.join(" or ")} for status ${response.status}`,
    );
    return problems;
  }
  const schema = content[mediaType]?.schema;
  if (isJsonMediaType(mediaType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.text);
    } catch {
      problems.push(`body is not JSON: ${response.text.slice(0, 300)}`);
      return problems;
    }
    if (schema) {
      const validate = validatorFor(`${method} ${pathTemplate} ${declaredKey} ${mediaType}`, schema);
      if (!validate(parsed)) problems.push(...formatErrors(validate.errors));
    }
    // RFC 9457: a problem's `status` member must be the HTTP status of the response.
    if (mediaType === "application/problem+json" && parsed && typeof parsed === "object") {
      const status = (parsed as { status?: unknown }).status;
      if (typeof status === "number" && status !== response.status)
        problems.push(`problem status ${status} differs from the HTTP status ${response.status}`);
    }
  }
  return problems;
}

/** Fails with ajv's errors listed unless the response is one the YAML declares for the operation. */
export function expectConforms(method: string, pathTemplate: string, response: CheckedResponse): void {
  const problems = conformanceProblems(method, pathTemplate, response);
  if (problems.length > 0)
    throw new Error(
      `${method.toUpperCase()} ${pathTemplate} answered ${response.status} not as openapi/provider.yaml declares:\n  - ${problems.join("\n  - ")}`,
    );
}
