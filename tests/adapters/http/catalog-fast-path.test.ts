import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCatalogFastPath } from "../../../adapters/http/catalog-fast-path.ts";
import type { PublicCatalogAnswers } from "../../../adapters/http/public-catalog-routes.ts";
import { prepareJson } from "../../../adapters/http/response-cache.ts";
import { createAccessLogger } from "../../../kit/logger.ts";
import { type AccessEntry, requestIdOf } from "../../../kit/request-context.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aPointOfSaleProduct, subscriptionMappings } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call } from "../../support/http.ts";

const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("the fast path's choices", () => {
  const list = prepareJson({ items: [{ slug: "a" }], next_cursor: null });
  const product = prepareJson({ slug: "a" });
  const answers = {
    cachedFirstPage: () => list,
    cachedProduct: (slug: string) => (slug === "a" || slug === "A.b_c~d-1" ? product : undefined),
  } as unknown as PublicCatalogAnswers;
  const setup = (rateLimitGroupOf: (path: string) => string | undefined = () => undefined) => {
    const passed: string[] = [];
    const logged: AccessEntry[] = [];
    const fetch = createCatalogFastPath({
      answers,
      logAccess: (entry) => void logged.push(entry),
      rateLimitGroupOf,
      next: (request) => {
        passed.push(`${request.method} ${request.url}`);
        return new Response("from elysia", { status: 299 });
      },
    });
    return { fetch, passed, logged };
  };

  test.each([
    ["GET", "/api/products"],
    ["HEAD", "/api/products"],
    ["GET", "/api/products/a"],
    ["GET", "/api/products/A.b_c~d-1"],
  ])("%s %s is answered from the cache", async (method, path) => {
    const { fetch, passed, logged } = setup();
    const response = await fetch(new Request(`http://localhost:3000${path}`, { method }));
    expect(passed).toEqual([]);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(path === "/api/products" ? list.etag : product.etag);
    expect(response.headers.get("x-request-id")).toMatch(UUID_SHAPED);
    expect(logged).toEqual([
      {
        req_id: response.headers.get("x-request-id") ?? "",
        method,
        path,
        status: 200,
        duration_ms: expect.any(Number),
      },
    ]);
  });

  test.each([
    ["POST", "/api/products"],
    ["OPTIONS", "/api/products"],
    ["GET", "/api/products?limit=20"],
    ["GET", "/api/products?"],
    ["GET", "/api/products/a?x=1"],
    ["GET", "/api/products/"],
    ["GET", "/api/products/%61"],
    ["GET", "/api/products/%00"],
    ["GET", "/api/products/a/b"],
    ["GET", "/api/productsa"],
    ["GET", "/api/products/unknown"],
    ["GET", `/api/products/${"a".repeat(101)}`],
    ["GET", "/health"],
    ["GET", "//api/products"],
  ])("%s %s goes to Elysia", async (method, path) => {
    const { fetch, passed, logged } = setup();
    const response = await fetch(new Request(`http://localhost:3000${path}`, { method }));
    expect(response.status).toBe(299);
    expect(passed).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  test("a path a rate limit covers goes to Elysia, where the limiter runs", async () => {
    const { fetch, passed } = setup((path) => (path.startsWith("/api/products") ? "catalog" : undefined));
    expect((await fetch(new Request("http://localhost/api/products"))).status).toBe(299);
    expect(passed).toHaveLength(1);
  });

  test("the caller's sane request id is kept; anything else is replaced", async () => {
    const { fetch } = setup();
    const ask = (id: string) =>
      fetch(new Request("http://localhost/api/products", { headers: { "x-request-id": id } })) as Promise<Response>;
    expect((await ask("abc-123")).headers.get("x-request-id")).toBe("abc-123");
    expect((await ask("<script> id")).headers.get("x-request-id")).toMatch(UUID_SHAPED);
    const fresh = await Promise.all([ask(""), ask("")]);
    const [one, two] = fresh.map((response) => response.headers.get("x-request-id"));
    expect(one).not.toBe(two);
  });

  test.each([
    [list.etag, 304],
    [`W/${list.etag}`, 304],
    [`"other", ${list.etag}`, 304],
    ["*", 304],
    ['"other"', 200],
  ])("If-None-Match %s is a %d", async (header, status) => {
    const { fetch, logged } = setup();
    const response = await fetch(
      new Request("http://localhost/api/products", { headers: { "if-none-match": header } }),
    );
    expect(response.status).toBe(status);
    expect(logged[0]?.status).toBe(status);
    if (status === 304) expect(await response.text()).toBe("");
  });
});

describe("fast and full paths answer alike", () => {
  const db = useTestDatabase();
  const lines: string[] = [];
  let marketplace: ReturnType<typeof createTestMarketplace>;
  let server: ReturnType<typeof Bun.serve>;
  let admin = "";
  const base = () => `http://127.0.0.1:${server.port}`;

  beforeAll(async () => {
    const accessLogger = createAccessLogger({
      level: "info",
      name: "marketplace",
      destination: { write: (line: string) => void lines.push(line) },
    });
    marketplace = createTestMarketplace(db.current.sql, { accessLogger });
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: marketplace.app.fetch });
    admin = await tokenFor("admin");
  });
  afterAll(async () => {
    server.stop(true);
    await marketplace.close();
  });

  async function publish() {
    const created = await call(marketplace.app, "POST", "/api/admin/products", {
      token: admin,
      body: aPointOfSaleProduct({ tags: ["fast-path"] }),
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; slug: string };
  }

  /** Every header but the two that differ per response by nature. */
  const comparable = (response: Response) =>
    [...response.headers].filter(([name]) => name !== "x-request-id" && name !== "date");

  /** Which path answered: only Elysia's request context records an id for the request. */
  async function servedBy(path: string) {
    const request = new Request(`http://localhost${path}`);
    await marketplace.app.fetch(request);
    return requestIdOf(request) === "unknown" ? "fast path" : "elysia";
  }

  async function ask(path: string, init: RequestInit = {}) {
    const response = await fetch(`${base()}${path}`, init);
    return { response, body: await response.text() };
  }

  /**
   * Reads `path` until its answer stays cached. A write invalidates the cache at once on this instance
   * and once more when its own notification comes back through LISTEN, which may empty the cache
   * again just after a first read filled it.
   */
  async function warm(path: string) {
    for (let tries = 0; tries < 50; tries++) {
      await ask(path);
      if ((await servedBy(path)) !== "fast path") continue;
      // Still cached after the notification's round trip: the echo has come and gone.
      await Bun.sleep(100);
      if ((await servedBy(path)) === "fast path") return;
    }
  }

  /** Pairs of targets: the first answered before Elysia (a cached, query-less read), the second by Elysia. */
  const pairs = async () => {
    const { slug } = await publish();
    // The first read of each fills the cache through Elysia.
    await warm("/api/products");
    await warm(`/api/products/${slug}`);
    return [
      ["/api/products", "/api/products?limit=20"],
      [`/api/products/${slug}`, `/api/products/${slug}?via=elysia`],
    ] as const;
  };

  test("the same status, body and headers for GET, HEAD and a revalidating GET", async () => {
    for (const [fast, full] of await pairs()) {
      expect([await servedBy(fast), await servedBy(full)]).toEqual(["fast path", "elysia"]);
      const [a, b] = [await ask(fast), await ask(full)];
      expect(a.response.status).toBe(200);
      expect(b.response.status).toBe(200);
      expect(a.body).toBe(b.body);
      expect(comparable(a.response)).toEqual(comparable(b.response));
      expect(Object.fromEntries(comparable(a.response))).toMatchObject({
        "content-type": "application/json;charset=utf-8",
        "cache-control": "no-cache",
        etag: expect.stringMatching(/^"[A-Za-z0-9_-]{32}"$/),
        "content-length": String(Buffer.byteLength(a.body)),
      });
      for (const response of [a.response, b.response]) {
        expect(response.headers.get("x-request-id")).toMatch(UUID_SHAPED);
      }

      const [headA, headB] = [await ask(fast, { method: "HEAD" }), await ask(full, { method: "HEAD" })];
      expect(headA.response.status).toBe(200);
      expect(headA.body).toBe("");
      expect(headB.body).toBe("");
      expect(comparable(headA.response)).toEqual(comparable(headB.response));

      const etag = a.response.headers.get("etag") ?? "";
      const revalidate = { headers: { "if-none-match": etag } };
      const [notModifiedA, notModifiedB] = [await ask(fast, revalidate), await ask(full, revalidate)];
      expect(notModifiedA.response.status).toBe(304);
      expect(notModifiedB.response.status).toBe(304);
      expect(notModifiedA.body).toBe("");
      expect(comparable(notModifiedA.response)).toEqual(comparable(notModifiedB.response));
      expect(notModifiedA.response.headers.get("etag")).toBe(etag);
      expect(notModifiedA.response.headers.get("cache-control")).toBe("no-cache");
    }
  });

  /** The access lines with this request id, once the first has been written (Elysia writes after answering). */
  async function linesOf(id: string) {
    const mine = () => lines.filter((line) => line.includes(`"req_id":"${id}"`));
    for (let waited = 0; mine().length === 0 && waited < 2000; waited += 5) await Bun.sleep(5);
    return mine().map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  test("the same access-log line, 304s logged as 304", async () => {
    let n = 0;
    for (const [fast, full] of await pairs()) {
      for (const [target, headers] of [
        [fast, {}],
        [full, {}],
        [fast, { "if-none-match": "*" }],
        [full, { "if-none-match": "*" }],
      ] as const) {
        const id = `trace-${++n}`;
        const { response } = await ask(target, { headers: { ...headers, "x-request-id": id } });
        const logged = await linesOf(id);
        expect(logged).toHaveLength(1);
        expect(Object.keys(logged[0] ?? {})).toEqual([
          "level",
          "time",
          "name",
          "req_id",
          "method",
          "path",
          "status",
          "duration_ms",
          "msg",
        ]);
        expect(logged[0]).toMatchObject({ req_id: id, method: "GET", path: target, status: response.status });
      }
    }
  });

  test("a NUL in the path or the query is refused on either path", async () => {
    for (const target of ["/api/products/%00", "/api/products?q=%00", "/api/products/a%00b"]) {
      const { response, body } = await ask(target);
      expect(response.status).toBe(400);
      expect((JSON.parse(body) as { code: string }).code).toBe("NUL_CHARACTER");
    }
  });

  test("after a catalog write the fast path serves the new answer with a new ETag at once", async () => {
    const { id, slug } = await publish();
    const path = `/api/products/${slug}`;
    await warm(path);
    expect(await servedBy(path)).toBe("fast path");
    const before = await ask(path);
    const oldTag = before.response.headers.get("etag") ?? "";
    expect((await ask(path, { headers: { "if-none-match": oldTag } })).response.status).toBe(304);
    const listTag = (await ask("/api/products")).response.headers.get("etag");

    const changed = await call(marketplace.app, "POST", "/api/admin/products/pricing-mappings/bulk", {
      token: admin,
      body: { product_id: id, mappings: subscriptionMappings(1234, 12340) },
    });
    expect(changed.status).toBeLessThan(300);

    expect(await servedBy(path)).toBe("elysia"); // the write emptied the cache
    const after = await ask(path, { headers: { "if-none-match": oldTag } });
    expect(after.response.status).toBe(200);
    expect(after.response.headers.get("etag")).not.toBe(oldTag);
    expect(JSON.parse(after.body).checkout_options.variants[0].price).toBe(1234);
    // The next read is a cache hit again, answered before Elysia, with the new tag.
    const again = await ask(path, { headers: { "if-none-match": oldTag } });
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get("etag")).toBe(after.response.headers.get("etag"));
    expect(again.body).toBe(after.body);
    // The list (this file's few products fit its first page) was invalidated by the same write.
    const list = await ask("/api/products", { headers: { "if-none-match": listTag ?? "" } });
    expect(list.response.status).toBe(200);
    expect(list.response.headers.get("etag")).not.toBe(listTag);
    const listed = (JSON.parse(list.body) as { items: { slug: string; checkout_options: any }[] }).items;
    expect(listed.find((item) => item.slug === slug)?.checkout_options.variants[0].price).toBe(1234);
  });
});
