import { Elysia } from "elysia";
import { isJsonContentType } from "../adapters/http/body-parser.ts";
import { HttpProblem } from "../adapters/http/problem.ts";

export const BODY_LIMIT_BYTES = 1024 * 1024;

const rawBodies = new WeakMap<Request, Uint8Array>();
/** Stands in for a body that is not JSON until the auth check has run, so 401 comes before 400. */
const MALFORMED = Object.freeze({ malformed: true });

async function readLimitedBytes(request: Request, limit: number): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
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
  return Buffer.concat(chunks, size);
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, "PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limit} bytes.`);
}

function parse(bytes: Uint8Array, contentType: string): unknown {
  // null, not undefined: Elysia would hand an undefined body to its own parser, which finds it consumed.
  if (bytes.byteLength === 0) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return isJsonContentType(contentType) ? JSON.parse(text) : text;
  } catch {
    return MALFORMED;
  }
}

/** The exact bytes the client sent; empty when the request had no body. HMAC signatures cover these. */
export function rawBodyOf(request: Request): Uint8Array {
  return rawBodies.get(request) ?? new Uint8Array();
}

export function assertWellFormed(body: unknown): void {
  if (body === MALFORMED) throw new HttpProblem(400, "MALFORMED_JSON", "The request body is not valid JSON.");
}

/** Keeps every body's raw bytes (capped at `limit`) beside its parsed form. */
export function createRawBodyParser(limit: number) {
  return new Elysia().onParse({ as: "global" }, async ({ request, contentType }) => {
    const bytes = await readLimitedBytes(request, limit);
    rawBodies.set(request, bytes);
    return parse(bytes, contentType);
  });
}
