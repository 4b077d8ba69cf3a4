import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { callUpstream, parseJsonBody, parseRetryAfter } from "../../../adapters/upstream/upstream-http.ts";
import {
  UpstreamBadResponse,
  UpstreamRejected,
  UpstreamServerError,
} from "../../../application/shared/upstream-errors.ts";

let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/redirect")
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } });
      if (path === "/timeout") return new Response("", { status: 408 });
      if (path === "/refused")
        return Response.json({ error: { code: "card_declined", message: "no" } }, { status: 402 });
      return Response.json({ ok: true });
    },
  });
});
afterAll(() => server.stop(true));

const call = (path: string) =>
  callUpstream(
    "gateway",
    { method: "GET", url: new URL(path, `http://127.0.0.1:${server.port}`), headers: {}, timeoutSeconds: 2 },
    (body) => {
      const error = (body as { error?: { code?: string; message?: string } }).error;
      return { ...(error?.code ? { code: error.code } : {}), ...(error?.message ? { detail: error.message } : {}) };
    },
  );

describe("callUpstream", () => {
  test("a 2xx comes back as text", async () => {
    expect((await call("/fine")).text).toBe('{"ok":true}');
  });

  test("a redirect is never followed and counts as a permanent rejection", async () => {
    const error = await call("/redirect").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ code: "GATEWAY_REJECTED", transient: false });
  });

  test("408 is transient like a 5xx", async () => {
    const error = await call("/timeout").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamServerError);
  });

  test("the upstream's own error code and detail are read through the given reader", async () => {
    const error = await call("/refused").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 402, upstreamCode: "card_declined" });
    expect((error as Error).message).toContain("no");
  });
});

test("parseJsonBody turns garbage into a transient bad response", () => {
  expect(() => parseJsonBody("gateway", "<html>")).toThrow(UpstreamBadResponse);
});

test.each([
  ["7", 7000],
  ["0", 0],
  ["soon", undefined],
  [null, undefined],
])("Retry-After %p is %p ms", (header, expected) => {
  expect(parseRetryAfter(header)).toBe(expected);
});

test("Retry-After as an HTTP date counts from now", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
});
