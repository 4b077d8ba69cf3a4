import { describe, expect, test } from "bun:test";
import { findLayerViolations, type Violation } from "../../scripts/lib/layer-rules.ts";

const check = (path: string, content: string): Violation[] => findLayerViolations([{ path, content }]);

describe("findLayerViolations", () => {
  test("a clean domain file passes", () => {
    const content = [
      'import { DomainError } from "../shared/domain-error.ts";',
      'export { type Role } from "./role.ts";',
      "export const isAdmin = (role: string) => role === 'admin';",
    ].join("\n");
    expect(check("domain/identity/user.ts", content)).toEqual([]);
  });

  test("domain importing a package fails", () => {
    expect(check("domain/identity/user.ts", 'import { Elysia } from "elysia";')).toEqual([
      {
        path: "domain/identity/user.ts",
        line: 1,
        reason: 'domain/ may only import domain/ files, not package "elysia"',
      },
    ]);
  });

  test("domain importing application/ fails", () => {
    const [violation, ...rest] = check("domain/identity/user.ts", 'import { x } from "../../application/x.ts";');
    expect(rest).toEqual([]);
    expect(violation?.reason).toContain('not "../../application/x.ts" (resolves to application/x.ts)');
  });

  test("application importing adapters/ fails", () => {
    const [violation, ...rest] = check("application/identity/a.ts", 'import { x } from "../../adapters/x.ts";');
    expect(rest).toEqual([]);
    expect(violation?.reason).toContain("application/ may only import domain/ or application/ files");
  });

  test("application importing node:fs fails", () => {
    const violations = check("application/identity/a.ts", 'import { readFileSync } from "node:fs";');
    expect(violations.map((v) => v.reason)).toEqual(['runtime module "node:fs" is not allowed in application/']);
  });

  test("a Bun.serve use fails, with its line number", () => {
    const content = "const a = 1;\n\nexport const start = () => Bun.serve({ fetch: () => new Response() });\n";
    expect(check("application/server.ts", content)).toEqual([
      { path: "application/server.ts", line: 3, reason: "Bun.* is runtime-specific and not allowed in application/" },
    ]);
  });

  test("process.env fails", () => {
    const violations = check("domain/config.ts", "export const port = Number(process.env.PORT);");
    expect(violations.map((v) => v.reason)).toEqual(["process.env is runtime-specific and not allowed in domain/"]);
  });

  test("a multi-line import of postgres fails on the specifier's line", () => {
    const content = 'import type { X } from "./x.ts";\nimport {\n  type Sql,\n  type Row,\n} from "postgres";\n';
    expect(check("application/ports.ts", content)).toEqual([
      {
        path: "application/ports.ts",
        line: 5,
        reason: 'application/ may only import domain/ or application/ files, not package "postgres"',
      },
    ]);
  });

  test('import("ky") fails', () => {
    const violations = check("application/client.ts", 'export const load = () => import("ky");');
    expect(violations).toHaveLength(1);
    expect(violations[0]?.reason).toContain('package "ky"');
  });

  test("application importing domain/ passes", () => {
    expect(check("application/identity/a.ts", 'import { x } from "../../domain/x.ts";')).toEqual([]);
  });

  test("side-effect imports and re-exports are checked too", () => {
    const content = 'import "pino";\nexport * from "bun:sqlite";\n';
    expect(check("domain/a.ts", content).map((v) => v.line)).toEqual([1, 2]);
  });

  test("comments do not count, strings with // do not hide code", () => {
    const content = [
      '// import { Elysia } from "elysia";',
      "/* Bun.serve(...) and process.env are adapter concerns */",
      'const url = "http://example.test"; const env = process.env;',
    ].join("\n");
    expect(check("domain/a.ts", content)).toEqual([
      { path: "domain/a.ts", line: 3, reason: "process.env is runtime-specific and not allowed in domain/" },
    ]);
  });

  test("files outside domain/ and application/ are not checked", () => {
    expect(check("adapters/main.ts", 'import { Elysia } from "elysia"; Bun.serve({});')).toEqual([]);
  });
});
