import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer } from "../../scripts/lib/build-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { type RunningService, startService } from "../support/process.ts";

const ROOT = join(import.meta.dir, "..", "..");
const outDir = join(ROOT, `dist-test-${process.pid}`);
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe("the bundled server (npm run build)", () => {
  test("is refused anywhere but one level below the root, where its files are found", async () => {
    await expect(buildServer(join(ROOT, "dist", "nested", "marketplace.js"))).rejects.toThrow(/one level below/);
    await expect(buildServer(join(tmpdir(), "marketplace.js"))).rejects.toThrow(/one level below/);
  });

  test("migrates an empty database and serves the catalog, the API reference and the console", async () => {
    const bundle = await buildServer(join(outDir, "marketplace.js"));
    cleanup.push(() => rm(outDir, { recursive: true, force: true }));
    const database: TestDatabase = await createTestDatabase({ migrated: false });
    cleanup.push(() => database.drop());
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-bundle-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    // Started from elsewhere: the bundle finds migrations, templates, pages and web/ from its own place.
    const server: RunningService = await startService(
      bundle,
      { DATABASE_URL: database.url, DATA_DIR: dataDir, SEED_DEMO_CATALOG: "true" },
      { timeoutMs: 30_000 },
    );
    cleanup.push(() => server.stop());

    const migrated = await database.sql<{ count: number }[]>`select count(*)::int as count from schema_migrations`;
    expect(migrated[0]?.count).toBeGreaterThan(0);
    const catalog = (await (await fetch(`${server.url}/api/products`)).json()) as { items: { slug: string }[] };
    expect(catalog.items.map((product) => product.slug)).toContain("tillpoint-pos");

    const docs = await (await fetch(`${server.url}/openapi`)).text();
    const docsScript = /<script[^>]+src="([^"]+)"/.exec(docs)?.[1];
    expect(docsScript).toBeDefined();
    const script = await fetch(new URL(docsScript ?? "", server.url));
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);

    const admin = await (await fetch(`${server.url}/admin`)).text();
    const consoleScript = /<script type="module" src="([^"]+)"/.exec(admin)?.[1];
    expect(consoleScript).toMatch(/^\/assets\/admin-/);
    const asset = await fetch(new URL(consoleScript ?? "", server.url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toContain("javascript");
  }, 60_000);
});
