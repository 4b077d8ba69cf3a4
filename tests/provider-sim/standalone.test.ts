import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * The simulator stands alone on the kit: neither reaches the marketplace's layers or a database
 * driver, however indirectly. Type-only imports count too (TypeScript's own scanner reads them),
 * since a type import still ties a folder to another one's code.
 */
const root = join(import.meta.dir, "../..");
const MARKETPLACE_FOLDERS = ["domain/", "application/", "adapters/"];
const DATABASE_DRIVER = /^(?:postgres|@electric-sql\/.+)(?:\/.*)?$/;

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** Every file reached from `entries` over relative imports, and every edge, with repository-relative paths. */
function importGraph(entries: readonly string[]): { files: Set<string>; edges: Edge[] } {
  const files = new Set<string>();
  const edges: Edge[] = [];
  const pending = entries.map((entry) => join(root, entry));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const from = relative(root, file);
    if (files.has(from)) continue;
    files.add(from);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) {
        edges.push({ from, to: fileName });
        continue;
      }
      const target = resolve(dirname(file), fileName);
      if (!existsSync(target)) throw new Error(`${from} imports ${fileName}, which does not exist`);
      edges.push({ from, to: relative(root, target) });
      pending.push(target);
    }
  }
  return { files, edges };
}

/** The edges into the marketplace's layers, `extraFolders`, or a database driver, as `from → to`. */
function forbidden(edges: readonly Edge[], extraFolders: readonly string[] = []): string[] {
  const folders = [...MARKETPLACE_FOLDERS, ...extraFolders];
  return edges
    .filter(({ to }) => folders.some((folder) => to.startsWith(folder)) || DATABASE_DRIVER.test(to))
    .map(({ from, to }) => `${from} → ${to}`);
}

describe("provider-sim", () => {
  const graph = importGraph(["provider-sim/main.ts"]);

  test("the walk reaches the whole app and the kit it stands on", () => {
    expect(graph.files).toContain("provider-sim/app.ts");
    expect(graph.files).toContain("provider-sim/gateways/gateway-b/events.ts");
    expect([...graph.files].some((file) => file.startsWith("kit/"))).toBe(true);
  });

  test("imports nothing from domain/, application/ or adapters/, nor a database driver, even indirectly", () => {
    expect(forbidden(graph.edges)).toEqual([]);
  });
});

describe("kit", () => {
  const modules = existsSync(join(root, "kit"))
    ? readdirSync(join(root, "kit"), { recursive: true, encoding: "utf8" })
        .filter((name) => name.endsWith(".ts"))
        .map((name) => `kit/${name.replaceAll("\\", "/")}`)
    : [];

  test("exists", () => {
    expect(modules.length).toBeGreaterThan(0);
  });

  test("imports nothing from the marketplace, the simulator or a database driver, even indirectly", () => {
    const graph = importGraph(modules);
    expect([...graph.files].filter((file) => !file.startsWith("kit/"))).toEqual([]);
    expect(forbidden(graph.edges, ["provider-sim/"])).toEqual([]);
  });
});
