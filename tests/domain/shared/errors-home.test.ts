import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";

/** Every refusal is declared in its feature's `errors.ts`, so a reader knows where to look for one. */
const root = join(import.meta.dir, "../../..");
const SOURCE_FOLDERS = ["domain", "application", "adapters", "kit"];
const BASE_MODULE = "domain/shared/domain-error.ts";

interface SourceFile {
  readonly path: string;
  readonly text: string;
}

const CLASS = /\bclass(?:\s+(\w+))?(?:<[^>{]*>)?\s+extends\s+(\w+)(\s*\()?/g;

/** The classes, in any of `files`, that descend from `DomainError` and are declared outside an `errors.ts`. */
function misplacedErrors(files: readonly SourceFile[]): string[] {
  const declared = files.flatMap((file) =>
    [...file.text.matchAll(CLASS)].map((match) => ({
      path: file.path,
      name: match[1] ?? "(anonymous)",
      base: match[2] ?? "",
      // `extends fixedError(...)` builds its base from the DomainError the helper returns.
      calls: match[3] !== undefined,
    })),
  );
  const errors = new Set(["DomainError"]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of declared) {
      const isError = errors.has(c.base) || (c.base === "fixedError" && c.calls);
      if (isError && !errors.has(c.name)) {
        errors.add(c.name);
        grew = true;
      }
    }
  }
  return declared
    .filter((c) => (errors.has(c.base) || (c.base === "fixedError" && c.calls)) && c.path !== BASE_MODULE)
    .filter((c) => basename(c.path) !== "errors.ts")
    .map((c) => `${c.path}: ${c.name}`);
}

function sourceFiles(folder: string): SourceFile[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => {
      const path = join(root, folder, name);
      return { path: relative(root, path), text: readFileSync(path, "utf8") };
    });
}

describe("where errors are declared", () => {
  test("every class that descends from DomainError lives in an errors.ts", () => {
    const files = SOURCE_FOLDERS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(300);
    expect(misplacedErrors(files)).toEqual([]);
  });

  test("the check finds direct, fixed and inherited errors declared elsewhere", () => {
    const files: SourceFile[] = [
      { path: "domain/shared/domain-error.ts", text: "export abstract class DomainError extends Error {}" },
      { path: "domain/orders/errors.ts", text: "export class OrderNotFound extends DomainError {}" },
      { path: "domain/orders/order.ts", text: "export class Late extends DomainError {}" },
      { path: "application/orders/use.ts", text: 'class Gone extends fixedError("GONE", "gone", "Gone.") {}' },
      { path: "adapters/x/client.ts", text: "export class Busy extends UpstreamError {}" },
      { path: "application/shared/errors.ts", text: "export abstract class UpstreamError extends DomainError {}" },
      { path: "kit/problem.ts", text: "export class HttpProblem extends Error {}" },
    ];
    expect(misplacedErrors(files)).toEqual([
      "domain/orders/order.ts: Late",
      "application/orders/use.ts: Gone",
      "adapters/x/client.ts: Busy",
    ]);
  });
});
