import { afterAll, describe, expect, test } from "bun:test";
import { createArtifactDownloads, type DownloadRequest } from "../../../adapters/downloads/artifact-download.ts";
import { connectToAnyAddress, createGuardedFetch } from "../../../adapters/security/guarded-fetch.ts";
import { DownloadSourceBusy, DownloadSourceFailed, DownloadSourceTimeout } from "../../../application/shared/errors.ts";
import { createLogger } from "../../../kit/logger.ts";
import { serveRange } from "../../../provider-sim/artifacts/serve-range.ts";

const FILE = new Uint8Array(10_000).map((_, i) => (i * 7 + (i >> 8)) & 0xff);
const ETAG = '"v1"';
const MODIFIED = new Date("2026-01-01T00:00:00.000Z");
const representation = { body: new Blob([FILE]), etag: ETAG, lastModified: MODIFIED, headers: {} };

/** Chunks of the file, the next one only when `release` says so, for transfers caught half-way. */
function slowly(chunks: number, pauseMs: number) {
  let sent = 0;
  const size = FILE.length / chunks;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent > 0) await Bun.sleep(pauseMs);
      controller.enqueue(FILE.slice(sent * size, (sent + 1) * size));
      sent += 1;
      if (sent === chunks) controller.close();
    },
  });
}

/** Passes the first `count` bytes of a stream on, then ends it cleanly. */
function firstBytes(count: number) {
  let left = count;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (left > 0) controller.enqueue(chunk.subarray(0, left));
      left -= Math.min(left, chunk.length);
      if (left === 0) controller.terminate();
    },
  });
}

/** Set when the server's endless body is cancelled: its client hung up. */
let endlessCancelled = false;

const upstream = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const path = new URL(request.url).pathname;
    switch (path) {
      case "/ranges":
        return serveRange(request, representation);
      case "/no-ranges":
        return new Response(new Blob([FILE]), { headers: { etag: ETAG, "last-modified": MODIFIED.toUTCString() } });
      case "/no-head":
        if (request.method === "HEAD") return new Response(null, { status: 405 });
        return new Response(new Blob([FILE]), { headers: { etag: ETAG } });
      case "/page":
        return new Response("<script>alert(document.domain)</script>", {
          headers: { "content-type": "text/html", "content-disposition": "inline" },
        });
      case "/named":
        return new Response("x", { headers: { "content-disposition": 'attachment; filename="app-2.0.tar.gz"' } });
      case "/endless":
        endlessCancelled = false;
        return new Response(
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              await Bun.sleep(5);
              controller.enqueue(new Uint8Array(65_536));
            },
            cancel() {
              endlessCancelled = true;
            },
          }),
        );
      case "/moved":
        return new Response(null, { status: 302, headers: { location: "/ranges" } });
      case "/loop":
        return new Response(null, { status: 302, headers: { location: "/loop" } });
      case "/to-metadata":
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest" } });
      case "/slow-headers":
        await Bun.sleep(1500);
        return new Response("late");
      case "/stalls":
        return new Response(slowly(2, 1500));
      case "/flows":
        return new Response(slowly(10, 30));
      case "/busy":
        return new Response("slow down", { status: 429, headers: { "retry-after": "7" } });
      case "/overloaded":
        return new Response("down", { status: 503 });
      case "/wrong-range":
        return new Response(FILE.slice(0, 10), { status: 206, headers: { "content-range": "bytes 0-9/10000" } });
      case "/ends-early":
        // Chunked (Bun drops a stream's Content-Length), ending cleanly 6,000 bytes before its range.
        return new Response(slowly(10, 5).pipeThrough(firstBytes(4000)), {
          status: 206,
          headers: { "content-range": "bytes 0-9999/10000" },
        });
      case "/no-content-range":
        return new Response(FILE.slice(0, 10), { status: 206 });
      case "/gzip":
        return new Response(Bun.gzipSync(FILE), { headers: { "content-encoding": "gzip" } });
      case "/missing":
        return new Response("no", { status: 404 });
      default:
        return new Response("broken", { status: 500 });
    }
  },
});

/** Raw servers that break HTTP: one promises 10,000 bytes, sends 4,000 and hangs up; one answers nonsense. */
const raw = (answer: (socket: { write(data: string | Uint8Array): number; end(): void }) => void) =>
  Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: (socket) => answer(socket) } });
const cutShort = raw((socket) => {
  socket.write("HTTP/1.1 200 OK\r\ncontent-length: 10000\r\n\r\n");
  socket.write(FILE.slice(0, 4000));
  setTimeout(() => socket.end(), 20);
});
const garbage = raw((socket) => {
  socket.write("this is not HTTP at all\r\n\r\n");
  socket.end();
});
const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
const closedPort = closed.port;
closed.stop(true);

afterAll(() => {
  upstream.stop(true);
  cutShort.stop(true);
  garbage.stop(true);
});

const aborted: string[] = [];
const downloads = createArtifactDownloads({
  outbound: connectToAnyAddress,
  timeoutSeconds: 1,
  logger: createLogger({ level: "silent" }),
  recheckMs: 0,
});
const quietly = createArtifactDownloads({
  outbound: connectToAnyAddress,
  timeoutSeconds: 1,
  logger: {
    ...createLogger({ level: "silent" }),
    warn: (fields: { reason?: string }) => aborted.push(fields.reason ?? ""),
  } as never,
});

const at = (path: string) => `http://127.0.0.1:${upstream.port}${path}`;
const ask = (overrides: Partial<DownloadRequest> = {}): DownloadRequest => ({
  method: "GET",
  range: null,
  ifRange: null,
  stillAllowed: async () => true,
  ...overrides,
});
/** How reading a body ends: the aborted ones end with no reason given, so only the outcome is compared. */
const completion = (response: Response) =>
  response.arrayBuffer().then(
    (body) => `complete with ${body.byteLength} bytes`,
    () => "failed",
  );
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: Error) => error,
  );

describe("streaming the archive", () => {
  test("the whole file passes byte for byte, with the server's validators and none of its address", async () => {
    const response = await downloads(at("/ranges"), ask());
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(ETAG);
    expect(response.headers.get("last-modified")).toBe(MODIFIED.toUTCString());
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ranges"');
    expect(await bytesOf(response)).toEqual(FILE);
  });

  test.each([
    ["/ranges", "a server that cuts ranges"],
    ["/no-ranges", "a server that ignores them (cut here)"],
  ])("from %s, %s: single ranges are 206 with exactly their bytes", async (path) => {
    for (const [header, start, end] of [
      ["bytes=0-0", 0, 0],
      ["bytes=4095-4200", 4095, 4200],
      ["bytes=9000-", 9000, 9999],
      ["bytes=-10", 9990, 9999],
      ["bytes=9990-20000", 9990, 9999],
    ] as const) {
      const response = await downloads(at(path), ask({ range: header }));
      expect([header, response.status, response.headers.get("content-range")]).toEqual([
        header,
        206,
        `bytes ${start}-${end}/10000`,
      ]);
      expect(response.headers.get("content-length")).toBe(String(end - start + 1));
      expect(await bytesOf(response)).toEqual(FILE.slice(start, end + 1));
    }
  });

  test.each(["/ranges", "/no-ranges"])("from %s a range past the end is a 416 naming the size", async (path) => {
    const response = await downloads(at(path), ask({ range: "bytes=10000-" }));
    expect(response.status).toBe(416);
    expect(response.headers.get("content-range")).toBe("bytes */10000");
    expect(await response.json()).toMatchObject({ code: "RANGE_NOT_SATISFIABLE" });
  });

  test("several ranges, or a malformed one, get the whole file", async () => {
    for (const range of ["bytes=0-1,5-6", "bytes=9-3", "lines=1-2"]) {
      const response = await downloads(at("/ranges"), ask({ range }));
      expect([range, response.status]).toEqual([range, 200]);
      expect(await bytesOf(response)).toEqual(FILE);
    }
  });

  test.each(["/ranges", "/no-ranges"])(
    "from %s If-Range keeps the range only while the validator holds",
    async (path) => {
      const holds = await downloads(at(path), ask({ range: "bytes=0-9", ifRange: ETAG }));
      expect([holds.status, (await bytesOf(holds)).length]).toEqual([206, 10]);
      const dated = await downloads(at(path), ask({ range: "bytes=0-9", ifRange: MODIFIED.toUTCString() }));
      expect(dated.status).toBe(206);
      await dated.body?.cancel();
      for (const stale of ['"v0"', `W/${ETAG}`, "Fri, 02 Jan 2026 00:00:00 GMT"]) {
        const changed = await downloads(at(path), ask({ range: "bytes=0-9", ifRange: stale }));
        expect([stale, changed.status]).toEqual([stale, 200]);
        expect(await bytesOf(changed)).toEqual(FILE);
      }
    },
  );

  test("HEAD answers the headers of the same GET, without a body", async () => {
    const whole = await downloads(at("/ranges"), ask({ method: "HEAD" }));
    expect([whole.status, whole.headers.get("content-length"), whole.body]).toEqual([200, "10000", null]);
    const part = await downloads(at("/no-ranges"), ask({ method: "HEAD", range: "bytes=100-199" }));
    expect([part.status, part.headers.get("content-range"), part.headers.get("content-length")]).toEqual([
      206,
      "bytes 100-199/10000",
      "100",
    ]);
  });

  test("whatever the server says, the browser saves the bytes and never renders them on the marketplace's origin", async () => {
    const page = await downloads(at("/page"), ask());
    expect(page.headers.get("content-disposition")).toBe('attachment; filename="page"');
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    await page.body?.cancel();
    const named = await downloads(at("/named"), ask());
    expect(named.headers.get("content-disposition")).toBe('attachment; filename="app-2.0.tar.gz"');
    await named.body?.cancel();
  });

  test("a server that refuses HEAD is asked with a GET whose body is left unread", async () => {
    const head = await downloads(at("/no-head"), ask({ method: "HEAD", range: "bytes=0-9" }));
    expect([head.status, head.headers.get("content-range"), head.headers.get("etag"), head.body]).toEqual([
      206,
      "bytes 0-9/10000",
      ETAG,
      null,
    ]);
  });

  test("a redirect is followed through the guard, and its target never reaches the customer", async () => {
    const response = await downloads(at("/moved"), ask({ range: "bytes=5-9" }));
    expect(response.headers.get("location")).toBeNull();
    expect(await bytesOf(response)).toEqual(FILE.slice(5, 10));
  });
});

describe("when the archive's server fails, the customer gets a clear answer", () => {
  test.each([
    ["a 500", "/broken", "HTTP 500"],
    ["a 404", "/missing", "HTTP 404"],
    ["a redirect loop", "/loop", "HTTP 302: redirects without end"],
    ["a 206 for other bytes than asked", "/wrong-range", "a 206 of bytes 0-9"],
    ["a 206 without Content-Range", "/no-content-range", "a 206 without a usable Content-Range"],
    ["a compressed answer", "/gzip", "content-encoding gzip"],
  ])("%s is DOWNLOAD_SOURCE_FAILED (502)", async (_label, path, reason) => {
    const error = await failure(downloads(at(path), ask({ range: "bytes=100-199" })));
    expect(error).toBeInstanceOf(DownloadSourceFailed);
    expect((error as DownloadSourceFailed).reason).toContain(reason);
    expect((error as DownloadSourceFailed).message).not.toContain("127.0.0.1");
  });

  test("a refused connection and an answer that is not HTTP are DOWNLOAD_SOURCE_FAILED", async () => {
    for (const port of [closedPort, garbage.port]) {
      const error = await failure(downloads(`http://127.0.0.1:${port}/x`, ask()));
      expect([port, (error as DownloadSourceFailed).code]).toEqual([port, "DOWNLOAD_SOURCE_FAILED"]);
      expect((error as DownloadSourceFailed).reason).toStartWith("unreachable: ");
    }
  });

  test("429 and 503 are DOWNLOAD_SOURCE_BUSY with the server's Retry-After, or 5 s", async () => {
    const limited = await failure(downloads(at("/busy"), ask()));
    expect(limited).toBeInstanceOf(DownloadSourceBusy);
    expect((limited as DownloadSourceBusy).retryAfterSeconds).toBe(7);
    expect(((await failure(downloads(at("/overloaded"), ask()))) as DownloadSourceBusy).retryAfterSeconds).toBe(5);
  });

  test("headers later than the time-out are DOWNLOAD_SOURCE_TIMEOUT (504)", async () => {
    expect(await failure(downloads(at("/slow-headers"), ask()))).toBeInstanceOf(DownloadSourceTimeout);
  });

  test("a host name that never resolves is DOWNLOAD_SOURCE_TIMEOUT too", async () => {
    const stuck = createArtifactDownloads({
      outbound: createGuardedFetch({ allowPrivate: false, resolve: () => new Promise(() => {}) }),
      timeoutSeconds: 1,
      logger: createLogger({ level: "silent" }),
    });
    expect(await failure(stuck("http://artifacts.example/app/1.0.0", ask()))).toBeInstanceOf(DownloadSourceTimeout);
  });

  test("a private address, directly or by redirect, is refused by the guard when private addresses are not allowed", async () => {
    const guarded = createArtifactDownloads({
      outbound: createGuardedFetch({ allowPrivate: false }),
      timeoutSeconds: 1,
      logger: createLogger({ level: "silent" }),
    });
    const direct = await failure(guarded(at("/ranges"), ask()));
    expect((direct as DownloadSourceFailed).reason).toStartWith("address refused: ");
    // A public name whose server redirects to the cloud metadata address: the second hop is vetted too.
    const publicName = createArtifactDownloads({
      outbound: createGuardedFetch({
        allowPrivate: false,
        resolve: async () => ["93.184.216.34"],
        transport: (input, init) => {
          const url = new URL(input instanceof Request ? input.url : input);
          return fetch(at(url.pathname), init);
        },
      }),
      timeoutSeconds: 1,
      logger: createLogger({ level: "silent" }),
    });
    const redirected = await failure(publicName("http://artifacts.example/to-metadata", ask()));
    expect((redirected as DownloadSourceFailed).reason).toContain("address refused: 169.254.169.254");
    expect(await bytesOf(await publicName("http://artifacts.example/moved", ask({ range: "bytes=0-1" })))).toEqual(
      FILE.slice(0, 2),
    );
  });
});

describe("a transfer under way is aborted, never quietly short", () => {
  test("a server that hangs up before its Content-Length fails the body", async () => {
    const response = await downloads(`http://127.0.0.1:${cutShort.port}/x`, ask());
    expect(response.status).toBe(200);
    expect(await completion(response)).toBe("failed");
  });

  test("a body that ends cleanly short of the range its server announced fails", async () => {
    aborted.length = 0;
    const response = await quietly(at("/ends-early"), ask({ range: "bytes=0-" }));
    expect(response.headers.get("content-range")).toBe("bytes 0-9999/10000");
    expect(await completion(response)).toBe("failed");
    expect(aborted).toContain("the source ended 6000 bytes short");
  });

  test("a server that stops sending for longer than the time-out fails the body", async () => {
    aborted.length = 0;
    const response = await quietly(at("/stalls"), ask());
    expect(await completion(response)).toBe("failed");
    expect(aborted).toContain("no bytes for 1000 ms");
  });

  test("a range cut here from a server that hangs up short fails the body", async () => {
    const response = await downloads(`http://127.0.0.1:${cutShort.port}/x`, ask({ range: "bytes=3000-5999" }));
    expect(response.status).toBe(206);
    expect(await completion(response)).toBe("failed");
  });

  test("a customer who hangs up stops the transfer from the server, and nothing is logged as aborted", async () => {
    aborted.length = 0;
    const marketplace = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => quietly(at("/endless"), ask()),
    });
    try {
      const hangUp = new AbortController();
      const response = await fetch(`http://127.0.0.1:${marketplace.port}/`, { signal: hangUp.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.read();
      hangUp.abort();
      for (const deadline = Date.now() + 2000; !endlessCancelled && Date.now() < deadline; ) await Bun.sleep(10);
      await Bun.sleep(100);
      expect([endlessCancelled, aborted]).toEqual([true, []]);
    } finally {
      marketplace.stop(true);
    }
  });

  test("a download no longer allowed (its license revoked meanwhile) stops where it is", async () => {
    let allowed = true;
    const response = await downloads(at("/flows"), ask({ stillAllowed: async () => allowed }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value?.length).toBe(1000);
    allowed = false;
    expect(
      await reader.read().then(
        () => "read",
        () => "failed",
      ),
    ).toBe("failed");
  });
});
