import { findStructureViolation } from "./json-structure.ts";
import { HttpProblem, invalidFields } from "./problem.ts";

/**
 * What to give `Bun.serve` as `maxRequestBodySize`. `readLimitedBytes` caps every body (chunked too)
 * and answers a problem+json 413; Bun's own limit would answer first, with an empty body.
 */
export const SERVER_BODY_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The one body reader of the marketplace and the simulator: the exact bytes, refused with a 413
 * once they grow past `limit` (chunked bodies too, without reading the rest).
 */
export async function readLimitedBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const header = request.headers.get("content-length");
  const declared = Number(header ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  // A declared length is enforced by the server while reading: one native read is enough.
  if (header !== null && Number.isInteger(declared)) return new Uint8Array(await request.arrayBuffer());
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Strict UTF-8: a body with invalid sequences is refused rather than silently repaired. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpProblem(400, "MALFORMED_BODY", "The request body is not valid UTF-8.");
  }
}

export async function readLimitedText(request: Request, limit: number): Promise<string> {
  return decodeUtf8(await readLimitedBytes(request, limit));
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, "PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limit} bytes.`);
}

/** JSON within the structure limits (depth, members, string length), checked before it is parsed. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  const violation = findStructureViolation(text);
  if (violation) throw new HttpProblem(400, violation.code, `The request body ${violation.reason}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpProblem(400, "MALFORMED_JSON", "The request body is not valid JSON.");
  }
  if (mayHoldUnsafeContent(text)) {
    const problem = unsafeContent(value, "");
    if (problem) throw invalidFields([{ ...problem, path: problem.path || "/" }]);
  }
  return value;
}

/**
 * Keys that shadow what every object inherits (`toString`, `__proto__`, ...): no body here uses
 * them, and code that turns a value into text would call them.
 */
const RESERVED_KEYS = Object.getOwnPropertyNames(Object.prototype);

/** PostgreSQL text cannot hold U+0000; refused here, such a string can never reach a query. */
function unsafeContent(value: unknown, path: string): { path: string; code: string; message: string } | undefined {
  if (typeof value === "string") {
    return value.includes("\0")
      ? { path, code: "NUL_CHARACTER", message: "must not contain the NUL character (U+0000)" }
      : undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (key.includes("\0"))
      return { path: at, code: "NUL_CHARACTER", message: "must not contain the NUL character (U+0000)" };
    if (!Array.isArray(value) && RESERVED_KEYS.includes(key)) {
      return { path: at, code: "RESERVED_KEY", message: "is a reserved name and cannot be a key" };
    }
    const found = unsafeContent(item, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * The request as its route's parser will read it, its body read once under `limit` (a 413 past
 * it) and strict UTF-8. It reaches the route as JSON for Elysia's own parser (so the OpenAPI
 * plugin documents each body from its schema): JSON within the structure limits, a form as an
 * object of its fields (the last value of a repeated one), and any other body as one string, for
 * the route's schema to refuse. A route that needs the exact bytes (a webhook's signed body) does
 * not come here: it reads them itself with `readLimitedBytes`.
 */
export async function withCheckedBody(request: Request, limit: number): Promise<Request> {
  if (request.body === null) return request;
  const text = decodeUtf8(await readLimitedBytes(request, limit));
  const contentType = request.headers.get("content-type") ?? "";
  if (!isJsonContentType(contentType)) {
    const form = contentType.startsWith("application/x-www-form-urlencoded");
    return asJson(request, JSON.stringify(form ? Object.fromEntries(new URLSearchParams(text)) : text));
  }
  // A blank JSON body is no body: the route's schema says whether one is required.
  if (text.trim() === "") return new Request(request, { body: null });
  const violation = findStructureViolation(text);
  if (violation) throw new HttpProblem(400, violation.code, `The request body ${violation.reason}.`);
  // Rare enough to parse twice: the route's parser reads the text again.
  if (mayHoldUnsafeContent(text)) parseJsonBody(text);
  return asJson(request, text);
}

function asJson(request: Request, body: string): Request {
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Request(request, { body, headers });
}

const mayHoldUnsafeContent = (text: string) =>
  text.includes("\\u0000") || RESERVED_KEYS.some((key) => text.includes(`"${key}"`));

export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}
