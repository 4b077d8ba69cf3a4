import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../../support/app.ts";
import { type Browser, hasChromium, openBrowser, watchPage } from "../../support/browser.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

describe("the docs page", () => {
  let server: ReturnType<typeof Bun.serve> | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createTestApp(db.current.sql).fetch });
    if (hasChromium) browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
  });
  const origin = () => `http://127.0.0.1:${server?.port}`;

  test("sends the security headers every other page sends", async () => {
    const docs = await fetch(`${origin()}/openapi`);
    const home = await fetch(`${origin()}/`);
    expect(docs.headers.get("content-type")).toStartWith("text/html");
    for (const name of ["content-security-policy", "referrer-policy", "x-content-type-options"]) {
      expect(docs.headers.get(name)).toBeString();
      expect(docs.headers.get(name)).toBe(home.headers.get(name));
    }
    expect(docs.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  test("names its script on our own host, cached for good and revalidated by ETag", async () => {
    const html = await (await fetch(`${origin()}/openapi`)).text();
    const script = /<script src="(\/assets\/api-reference\.[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeString();
    // Every file the page names is a path on this host.
    const named = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(named.length).toBe(3);
    expect(named.filter((url) => !url?.startsWith("/assets/"))).toEqual([]);
    for (const url of named) expect((await fetch(`${origin()}${url}`)).status).toBe(200);
    const served = await fetch(`${origin()}${script}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toStartWith("text/javascript");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const again = await fetch(`${origin()}${script}`, {
      headers: { "if-none-match": served.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
  });

  test.skipIf(!hasChromium)(
    "renders the operation list in Chromium with no request to another host and no script error",
    async () => {
      const page = await (browser as Browser).context.newPage();
      const watched = watchPage(page);
      await page.goto(`${origin()}/openapi`);
      await page.getByText("Liveness: the process serves HTTP").first().waitFor({ timeout: 20_000 });
      // Late loaders (fonts, telemetry) start after the first render; give them time to show up.
      await page.waitForTimeout(1500);
      expect(watched.foreign(origin())).toEqual([]);
      expect(watched.errorsOn("")).toEqual([]);
      expect(watched.requests).toContain(`${origin()}/openapi/json`);
    },
    40_000,
  );
});
