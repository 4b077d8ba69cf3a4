import { createHash } from "node:crypto";

/** A JSON answer prepared once per cache generation: its bytes, strong entity tag and 200 response. */
export interface PreparedAnswer {
  /** A strong validator (RFC 9110, 8.8.3): the same tag means the same bytes. */
  readonly etag: string;
  /**
   * The 200 with its body and headers, never sent itself: each request gets a clone. A clone shares
   * the body (an immutable Blob, which Bun sends without copying) and copies the prepared headers
   * natively, which measured cheaper than a new Response from the bytes and a header object.
   */
  readonly ok: Response;
}

export const JSON_CONTENT_TYPE = "application/json;charset=utf-8";
/**
 * The catalog changes whenever an admin edits it: a client may keep a copy, yet asks again every
 * time, and a copy that is still current costs a bodiless 304.
 */
export const REVALIDATE = "no-cache";

const encoder = new TextEncoder();

export function prepareJson(value: unknown): PreparedAnswer {
  const bytes = encoder.encode(JSON.stringify(value));
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 32)}"`;
  const body = new Blob([bytes], { type: JSON_CONTENT_TYPE });
  return {
    etag,
    ok: new Response(body, { headers: { "content-type": JSON_CONTENT_TYPE, etag, "cache-control": REVALIDATE } }),
  };
}

/** Whether `If-None-Match` names this tag; weak comparison, as RFC 9110 (13.1.2) asks of this header. */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header === etag) return true;
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) return true;
  }
  return false;
}

/**
 * The answer to a GET (or HEAD: the server leaves the body out): 200 with the bytes, or 304 when the
 * client already holds them. `requestId` is for callers outside Elysia; inside it, the request
 * context adds the header to whatever the handler returns.
 */
export function answerResponse(answer: PreparedAnswer, ifNoneMatch: string | null, requestId?: string): Response {
  if (noneMatchHits(ifNoneMatch, answer.etag)) {
    return new Response(null, {
      status: 304,
      headers:
        requestId === undefined
          ? { etag: answer.etag, "cache-control": REVALIDATE }
          : { etag: answer.etag, "cache-control": REVALIDATE, "x-request-id": requestId },
    });
  }
  const response = answer.ok.clone();
  if (requestId !== undefined) response.headers.set("x-request-id", requestId);
  return response;
}

/**
 * Prepared answers kept until the next invalidation. A generation counter stops an answer computed
 * before an invalidation from being stored after it.
 */
export function createResponseCache(maxEntries = 1000) {
  const entries = new Map<string, PreparedAnswer>();
  let generation = 0;
  return {
    /** What is cached now, computing nothing: for the fast path, which falls back on a miss. */
    peek(key: string): PreparedAnswer | undefined {
      return entries.get(key);
    },
    async get(key: string, compute: () => Promise<unknown>): Promise<PreparedAnswer> {
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const started = generation;
      const answer = prepareJson(await compute());
      if (started === generation) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, answer);
      }
      return answer;
    },
    invalidate() {
      generation++;
      entries.clear();
    },
  };
}
