import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import {
  connectToAnyAddress,
  createGuardedFetch,
  type OutboundFetch,
} from "../../../adapters/security/guarded-fetch.ts";
import { type UpstreamCall, upstreamCalls } from "../../../adapters/upstream/upstream-calls.ts";
import { callUpstream, parseRetryAfter } from "../../../adapters/upstream/upstream-http.ts";
import {
  UpstreamBadResponse,
  UpstreamError,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../../../application/shared/errors.ts";

/** A body whose first byte comes at once and the rest never. */
const trickle = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
    },
  });

/** A raw server whose answer promises 100 bytes of body, sends 11 and hangs up. */
const breaksOff = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    data(socket) {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"partial":');
      setTimeout(() => socket.end(), 20);
    },
  },
});

let server: ReturnType<typeof Bun.serve>;
const calls = { busy: 0, down: 0 };
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/redirect")
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } });
      if (path === "/timeout") return new Response("", { status: 408 });
      if (path === "/trickle") return new Response(trickle(), { headers: { "content-type": "application/json" } });
      if (path === "/busy") {
        calls.busy++;
        return new Response("", { status: 429, headers: { "retry-after": "1" } });
      }
      if (path === "/down") {
        calls.down++;
        return new Response("", { status: 503 });
      }
      if (path === "/deep")
        return new Response(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, {
          headers: { "content-type": "application/json" },
        });
      if (path === "/garbage") return new Response("<html>", { headers: { "content-type": "application/json" } });
      if (path === "/refused")
        return Response.json({ error: { code: "card_declined", message: "no" } }, { status: 402 });
      return Response.json({ ok: true });
    },
  });
});
afterAll(() => {
  server.stop(true);
  breaksOff.stop(true);
});

const call = (
  path: string,
  outbound: OutboundFetch = connectToAnyAddress,
  base = `http://127.0.0.1:${server.port}`,
  method: "GET" | "POST" = "GET",
) =>
  callUpstream("gateway", { method, url: new URL(path, base), headers: {}, timeoutSeconds: 0.5, outbound }, (body) => {
    const error = (body as { error?: { code?: string; message?: string } }).error;
    return { ...(error?.code ? { code: error.code } : {}), ...(error?.message ? { detail: error.message } : {}) };
  });

describe("callUpstream", () => {
  test("a 2xx comes back parsed", async () => {
    expect((await call("/fine")).body).toEqual({ ok: true });
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

  test("a body still arriving at the time-out is a time-out, in time", async () => {
    const started = performance.now();
    const error = await call("/trickle").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test("a body that breaks off is a transient failure to reach the upstream, not an untyped error", async () => {
    const error = await call("/broken", connectToAnyAddress, `http://127.0.0.1:${breaksOff.port}`).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ transient: true, sentNothing: false });
    expect((error as Error).message).toContain("the answer broke off");
  });

  test("a connection refused is known to have sent nothing", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const error = await call("/", connectToAnyAddress, `http://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ sentNothing: true });
  });

  test.each(["GET", "POST"] as const)(
    "a %s is sent once: a 429 or a 5xx is not retried here, the job system retries with backoff",
    async (method) => {
      calls.busy = calls.down = 0;
      const base = `http://127.0.0.1:${server.port}`;
      const limited = await call("/busy", connectToAnyAddress, base, method).catch((e: unknown) => e);
      const failed = await call("/down", connectToAnyAddress, base, method).catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(UpstreamRateLimited);
      expect(limited).toMatchObject({ retryAfterMs: 1000, transient: true });
      expect(failed).toBeInstanceOf(UpstreamServerError);
      expect(calls).toEqual({ busy: 1, down: 1 });
    },
  );

  test("no error names the URL, so a credential in its query reaches no log line", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    for (const path of ["/down?key=sk_live_query_secret", "/refused?key=sk_live_query_secret"]) {
      const error = (await call(path, connectToAnyAddress, base).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(UpstreamError);
      expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain("sk_live_query_secret");
      expect(error.cause).toBeUndefined();
    }
  });

  test("calls at once through one client each keep their own upstream, time-out and reader", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const reader = (label: string) => () => ({ code: label });
    const [provider, gateway, slow] = await Promise.all([
      callUpstream(
        "provider",
        {
          method: "GET",
          url: new URL("/refused", base),
          headers: {},
          timeoutSeconds: 5,
          outbound: connectToAnyAddress,
        },
        reader("from_provider_reader"),
      ).catch((e: unknown) => e),
      callUpstream(
        "gateway",
        {
          method: "GET",
          url: new URL("/refused", base),
          headers: {},
          timeoutSeconds: 5,
          outbound: connectToAnyAddress,
        },
        reader("from_gateway_reader"),
      ).catch((e: unknown) => e),
      callUpstream(
        "provider",
        {
          method: "GET",
          url: new URL("/trickle", base),
          headers: {},
          timeoutSeconds: 0.3,
          outbound: connectToAnyAddress,
        },
        reader("unused"),
      ).catch((e: unknown) => e),
    ]);
    expect(provider).toMatchObject({ code: "PROVIDER_REJECTED", upstreamCode: "from_provider_reader" });
    expect(gateway).toMatchObject({ code: "GATEWAY_REJECTED", upstreamCode: "from_gateway_reader" });
    expect(slow).toBeInstanceOf(UpstreamTimeout);
    expect(slow).toMatchObject({ code: "PROVIDER_TIMEOUT" });
    expect((slow as UpstreamTimeout).message).toContain("0.3");
  });

  test("the upstream's own error code and detail are read through the given reader", async () => {
    const error = await call("/refused").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 402, upstreamCode: "card_declined" });
    expect((error as Error).message).toContain("no");
  });
});

describe("callUpstream through the connect-time guard", () => {
  test("a refused address is a permanent URL_NOT_ALLOWED that names the reason, and nothing is sent", async () => {
    let requests = 0;
    const counted: OutboundFetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const guarded = createGuardedFetch({ allowPrivate: false, transport: counted });
    const error = await call("/fine", guarded).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUrlNotAllowed);
    expect(error).toMatchObject({ code: "URL_NOT_ALLOWED", category: "invalid", transient: false });
    expect((error as Error).message).toBe(
      "The payment gateway is at an address the marketplace does not call: 127.0.0.1 is not a public address (loopback).",
    );
    expect(requests).toBe(0);
  });

  test("a host that does not resolve is refused too, but as a transient failure", async () => {
    const guarded = createGuardedFetch({ allowPrivate: false, resolve: async () => [] });
    const error = await call("/fine", guarded, "https://gone.example").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "URL_NOT_ALLOWED", transient: true });
    expect((error as Error).message).toContain("the host does not resolve");
  });

  test("resolving the host counts within the call's time-out", async () => {
    const guarded = createGuardedFetch({ allowPrivate: false, resolve: () => new Promise(() => {}) });
    const started = performance.now();
    const error = await call("/fine", guarded, "https://hanging-dns.example").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

test("an answer nested 100,000 levels deep is refused before it is parsed, as a transient bad response", async () => {
  const started = performance.now();
  const error = await call("/deep").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamBadResponse);
  expect(error).toMatchObject({ transient: true });
  expect((error as Error).message).toContain("answered with an invalid body: it nests deeper than 64 levels.");
  expect(performance.now() - started).toBeLessThan(500);
});

test("a 2xx answer that is not JSON is a transient bad response", async () => {
  const error = await call("/garbage").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamBadResponse);
  expect((error as Error).message).toContain("not JSON");
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

describe("every call is published when it ends, with its outcome", () => {
  test("ok, rate limited, server error, rejected, timeout and unreachable, timed", async () => {
    const heard: UpstreamCall[] = [];
    const listen = (message: unknown) => heard.push(message as UpstreamCall);
    subscribe(upstreamCalls.name, listen);
    try {
      const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
      const port = closed.port;
      closed.stop(true);
      for (const path of ["/fine", "/busy", "/down", "/refused", "/trickle"]) await call(path).catch(() => undefined);
      await call("/", connectToAnyAddress, `http://127.0.0.1:${port}`).catch(() => undefined);
    } finally {
      unsubscribe(upstreamCalls.name, listen);
    }
    expect(heard.map((heardCall) => heardCall.outcome)).toEqual([
      "ok",
      "rate_limited",
      "server_error",
      "rejected",
      "timeout",
      "unreachable",
    ]);
    expect(heard.every((heardCall) => heardCall.name === "gateway" && heardCall.method === "GET")).toBe(true);
    // The time-out's call lasted its half second.
    expect(heard[4]?.seconds).toBeGreaterThanOrEqual(0.45);
  });
});
