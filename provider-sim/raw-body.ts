import { Elysia } from "elysia";
import { decodeUtf8, isJsonContentType, parseJsonBody, readLimitedBytes } from "../kit/body-parser.ts";

export const BODY_LIMIT_BYTES = 1024 * 1024;

const rawBodies = new WeakMap<Request, Uint8Array>();

/** Stands in for a body that cannot be read until the auth check has run, so 401 comes before 400. */
class UnreadableBody {
  constructor(readonly problem: unknown) {}
}

function parse(bytes: Uint8Array, contentType: string): unknown {
  // null, not undefined: Elysia would hand an undefined body to its own parser, which finds it consumed.
  if (bytes.byteLength === 0) return null;
  try {
    const text = decodeUtf8(bytes);
    return isJsonContentType(contentType) ? (parseJsonBody(text) ?? null) : text;
  } catch (problem) {
    // An HttpProblem (encoding, structure, syntax, NUL, reserved keys): answered as it is.
    return new UnreadableBody(problem);
  }
}

/** The exact bytes the client sent; empty when the request had no body. HMAC signatures cover these. */
export function rawBodyOf(request: Request): Uint8Array {
  return rawBodies.get(request) ?? new Uint8Array();
}

export function assertWellFormed(body: unknown): void {
  if (body instanceof UnreadableBody) throw body.problem;
}

/** Keeps every body's raw bytes (capped at `limit`, read by the kit's reader) beside its parsed form. */
export function createRawBodyParser(limit: number) {
  return new Elysia().onParse({ as: "global" }, async ({ request, contentType }) => {
    const bytes = await readLimitedBytes(request, limit);
    rawBodies.set(request, bytes);
    return parse(bytes, contentType);
  });
}
