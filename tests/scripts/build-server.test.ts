import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { buildServer, sourceMapOf } from "../../scripts/lib/build-server.ts";
import { mapTrace } from "../../scripts/lib/map-trace.ts";
import { createTestDatabase } from "../support/database.ts";
import { startService } from "../support/process.ts";

const ROOT = join(import.meta.dir, "..", "..");
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Every TypeScript file under `dir`, recursively. */
async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the bundled server (npm run build)", () => {
  test("is refused anywhere but one level below the root, where its files are found", async () => {
    await expect(buildServer(join(ROOT, "dist", "nested", "marketplace.js"))).rejects.toThrow(/one level below/);
    await expect(buildServer(join(tmpdir(), "marketplace.js"))).rejects.toThrow(/one level below/);
  });

  test("keeps its source map where Bun does not read it and its names, and a trace it prints maps back to the source line", async () => {
    const outDir = join(ROOT, `dist-map-${process.pid}`);
    const sources = await mkdtemp(join(tmpdir(), "mkt-map-"));
    cleanup.push(() => rm(outDir, { recursive: true, force: true }));
    cleanup.push(() => rm(sources, { recursive: true, force: true }));
    const entry = join(sources, "fails-late.ts");
    await writeFile(
      entry,
      [
        "// A module whose failure comes late.",
        "class LateFailure extends Error {",
        "  constructor(reason: string) {",
        '    super("late: " + reason);',
        "    this.name = new.target.name;",
        "  }",
        "}",
        "function failLate(reason: string): never {",
        "  throw new LateFailure(reason);",
        "}",
        'failLate("on purpose");',
        "",
      ].join("\n"),
    );
    const bundle = await buildServer(join(outDir, "fails-late.js"), entry);
    const code = await readFile(bundle, "utf8");
    expect(code).not.toContain("sourceMappingURL");
    expect(code).not.toContain("A module whose failure comes late");

    const run = Bun.spawnSync([process.execPath, bundle], { cwd: tmpdir(), stderr: "pipe" });
    const trace = run.stderr.toString();
    expect(run.exitCode).not.toBe(0);
    expect(trace).toContain("LateFailure: late: on purpose");
    expect(trace).toMatch(/at failLate \(\S*fails-late\.js:\d+:\d+\)/);

    expect(await Bun.file(`${bundle}.map`).exists()).toBe(false);
    const mapped = mapTrace(trace, await readFile(sourceMapOf(bundle), "utf8"), "fails-late.js");
    expect(mapped).toMatch(/at failLate \(\S*fails-late\.ts:9:\d+\)/);
    expect(mapped).not.toContain("fails-late.js:");
    const elsewhere = "    at read (node:fs:12:3)\n    at load (/srv/other.js:2:31)";
    expect(mapTrace(elsewhere, await readFile(sourceMapOf(bundle), "utf8"), "fails-late.js")).toBe(elsewhere);
  });

  test("the server's code finds its files through asset-paths.ts alone: its own folder is the bundle's once bundled", async () => {
    const allowed = new Set(["adapters/asset-paths.ts"]);
    const offenders: string[] = [];
    for (const dir of ["adapters", "kit", "application", "domain"]) {
      for (const file of await sourcesUnder(join(ROOT, dir))) {
        const path = relative(ROOT, file);
        const text = await readFile(file, "utf8");
        if (allowed.has(path)) continue;
        if (/import\.meta\.(dir|dirname|url|file|filename|path)\b|__dirname|__filename/.test(text))
          offenders.push(path);
      }
    }
    expect(offenders).toEqual([]);
  });

  test("started from another folder, it migrates an empty database and serves the catalog, the API reference and the console", async () => {
    const outDir = join(ROOT, `dist-test-${process.pid}`);
    cleanup.push(() => rm(outDir, { recursive: true, force: true }));
    const bundle = await buildServer(join(outDir, "marketplace.js"));
    const database = await createTestDatabase({ migrated: false });
    cleanup.push(() => database.drop());
    const elsewhere = await mkdtemp(join(tmpdir(), "mkt-bundle-"));
    cleanup.push(() => rm(elsewhere, { recursive: true, force: true }));
    // Run from a folder of its own: the bundle finds migrations, templates, pages and web/ from its place.
    const server = await startService(
      bundle,
      { DATABASE_URL: database.url, DATA_DIR: elsewhere, SEED_DEMO_CATALOG: "true" },
      { timeoutMs: 30_000, cwd: elsewhere },
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
