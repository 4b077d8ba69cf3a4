import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The README's architecture map names real folders and files, and every source folder is on it. */
const root = join(import.meta.dir, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const architecture = readme.slice(readme.indexOf("## Architecture"), readme.indexOf("## Provider simulator"));

const pathsIn = (text: string) =>
  [...text.matchAll(/`([a-z-]+\/[a-z0-9<>/.-]*)`/g)]
    .map((match) => match[1] ?? "")
    .filter(
      (path) => !path.includes("<") && /^(domain|application|adapters|kit|provider-sim|openapi|tests)\//.test(path),
    );

describe("the README's architecture map", () => {
  test("every folder and file it names exists", () => {
    const named = pathsIn(architecture);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  test("every application feature is listed", () => {
    const features = readdirSync(join(root, "application"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const row = architecture.split("\n").find((line) => line.startsWith("| `application/<feature>/`")) ?? "";
    expect(features.filter((feature) => !row.includes(feature))).toEqual([]);
  });

  test("every wiring module is listed", () => {
    const modules = readdirSync(join(root, "adapters/wiring"))
      .map((name) => name.replace(/\.ts$/, ""))
      .filter((name) => !["platform", "feature", "http", "readiness"].includes(name));
    expect(modules.filter((name) => !architecture.includes(`\`${name}\``))).toEqual([]);
  });
});
