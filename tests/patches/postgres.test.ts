import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";

interface DriverQueue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}

const builds = ["src/queue.js", "cjs/src/queue.js"];

/** The longest array `Array.prototype.indexOf` was asked to search while `run` ran. */
function longestSearch(run: () => void): number {
  const indexOf = Array.prototype.indexOf;
  let longest = 0;
  Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
    longest = Math.max(longest, this.length);
    return indexOf.apply(this, args);
  };
  try {
    run();
  } finally {
    Array.prototype.indexOf = indexOf;
  }
  return longest;
}

test.each(builds)(
  "the pool's idle queue (%s) stays as long as what it holds, however many queries pass",
  async (build) => {
    const module = await import(new URL(`../../node_modules/postgres/${build}`, import.meta.url).href);
    const Queue = (module.default ?? module) as <T>(initial?: T[]) => DriverQueue<T>;
    // As the pool does: one connection stays idle throughout, another is taken and given back per query,
    // and each one taken is then removed from the queue it was shifted from.
    const idle = Queue<string>(["spare", "busy"]);
    const longest = longestSearch(() => {
      for (let query = 0; query < 20_000; query++) {
        const taken = idle.shift() as string;
        expect(idle.remove(taken)).toBeNull();
        idle.push(taken);
      }
    });
    expect(idle.length).toBe(2);
    expect(longest).toBeLessThan(200);
  },
);

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

test("the driver patch is applied at install, with production dependencies only too", () => {
  const manifest = JSON.parse(read("package.json"));
  expect(manifest.scripts.postinstall).toContain("patch-package");
  expect(Object.keys(manifest.dependencies)).toContain("patch-package");
  expect(Object.keys(manifest.dependencies)).toContain("postgres");
});

test("the patch matches the installed driver version and names where each fix is reported upstream", () => {
  const version = JSON.parse(read("node_modules/postgres/package.json")).version;
  const patch = read(`patches/postgres+${version}.patch`);
  expect(patch).toContain("https://github.com/porsager/postgres/issues/1208");
  expect(patch).toContain("docs/upstream/postgres-queue.md");
});

test.each(["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"])(
  "a flush after its connection closed is guarded in %s",
  (build) => {
    const source = read(`node_modules/postgres/${build}`);
    expect(source).toMatch(/function nextWrite\(fn\) \{\n.*\n {4}if \(!socket\) \{/);
  },
);
