import { contentRange, parseRangeHeader, resolveRange } from "../../kit/byte-range.ts";
import { problem, problemResponse } from "../../kit/problem.ts";

export interface Representation {
  readonly body: Blob;
  readonly etag: string;
  readonly lastModified: Date;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * RFC 9110 If-Range: the range applies only while the validator names this representation. An
 * entity tag compares strongly (a weak tag never matches); a date must equal Last-Modified exactly.
 */
function ifRangeHolds(header: string | null, representation: Representation): boolean {
  if (header === null) return true;
  const value = header.trim();
  if (value.startsWith('"')) return value === representation.etag;
  if (value.startsWith("W/")) return false;
  return Date.parse(value) === Math.floor(representation.lastModified.getTime() / 1000) * 1000;
}

/**
 * A static file as a mirror serves it: GET and HEAD, one byte range (206 with Content-Range, 416
 * when unsatisfiable), If-Range, and the length of what is sent. Blobs are sliced, never read whole;
 * to a HEAD the server sends the same headers and no body.
 */
export function serveRange(request: Request, representation: Representation): Response {
  const size = representation.body.size;
  const headers: Record<string, string> = {
    ...representation.headers,
    etag: representation.etag,
    "last-modified": representation.lastModified.toUTCString(),
    "accept-ranges": "bytes",
  };
  const spec = ifRangeHolds(request.headers.get("if-range"), representation)
    ? parseRangeHeader(request.headers.get("range"))
    : undefined;
  if (!spec) {
    return new Response(representation.body, {
      headers: { ...headers, "content-length": String(size) },
    });
  }
  const range = resolveRange(spec, size);
  if (!range) {
    return problemResponse(problem(416, "RANGE_NOT_SATISFIABLE", `The archive has ${size} bytes.`), {
      "content-range": contentRange(undefined, size),
    });
  }
  const length = range.end - range.start + 1;
  return new Response(representation.body.slice(range.start, range.end + 1), {
    status: 206,
    headers: { ...headers, "content-range": contentRange(range, size), "content-length": String(length) },
  });
}
