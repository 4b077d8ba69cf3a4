import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * The layer rules of `.dependency-cruiser.cjs`, run by the real dependency-cruiser over a small tree
 * that breaks each rule once next to imports the rules allow.
 */
const root = join(import.meta.dir, "../..");
let tree: string;

const FILES: Record<string, string> = {
  "domain/catalog/product.ts": 'import "../../adapters/postgres/repo.ts";\nexport const product = 1;',
  "domain/catalog/clock.ts": 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;',
  "domain/orders/order.ts": 'import { product } from "../catalog/product.ts";\nexport const order = product;',
  "application/catalog/ports.ts": "export interface ProductRepository { find(): void }",
  "domain/shared/money.ts": "export const cents = 100;",
  "application/catalog/manage-products.ts": 'import "../../domain/shared/money.ts";\nexport const manage = 1;',
  "application/checkout/create-checkout.ts":
    'import type { ProductRepository } from "../catalog/ports.ts";\nimport { manage } from "../catalog/manage-products.ts";\nimport "../shared/jobs.ts";\nexport type R = ProductRepository;\nexport const c = manage;',
  "application/checkout/uses-adapter.ts": 'import "../../adapters/http/routes.ts";\nexport const u = 1;',
  "application/shared/jobs.ts": "export const JOB = 1;",
  "adapters/postgres/repo.ts":
    'import type { ProductRepository } from "../../application/catalog/ports.ts";\nimport { manage } from "../../application/catalog/manage-products.ts";\nexport type R = ProductRepository;\nexport const m = manage;',
  "adapters/http/routes.ts":
    'import { manage } from "../../application/catalog/manage-products.ts";\nexport const r = manage;',
  "adapters/jobs/a.ts": 'import { b } from "./b.ts";\nexport const a = b;',
  "adapters/jobs/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;',
  "provider-sim/app.ts": 'import "../kit/problem.ts";\nimport "../adapters/http/routes.ts";\nexport const app = 1;',
  "kit/problem.ts": "export const problem = 1;",
  "kit/bad.ts": 'import "../domain/orders/order.ts";\nexport const bad = 1;',
  "adapters/main.ts": "export const main = 1;",
  "adapters/dead.ts": "export const dead = 1;",
  "adapters/uses-test.ts": 'import { built } from "../tests/support/builder.ts";\nexport const t = built;',
  "tests/support/builder.ts": "export const built = 1;",
  "adapters/uses-dev-dep.ts": 'import Stripe from "stripe";\nexport const s = Stripe;',
  "adapters/types-from-dev-dep.ts": 'import type { Stripe } from "stripe";\nexport type S = Stripe;',
  "adapters/uses-dep.ts": 'import { t } from "elysia";\nexport const e = t;',
  "application/catalog/errors.ts": "export class ProductNotFound extends Error {}",
  "application/checkout/refuse.ts":
    'import { ProductNotFound } from "../catalog/errors.ts";\nexport const refuse = () => new ProductNotFound();',
  "adapters/mail/mailer.ts":
    'import { ProductNotFound } from "../../application/catalog/errors.ts";\nexport const fail = () => new ProductNotFound();',
  "domain/orders/errors.ts":
    'import type { Status } from "./status.ts";\nexport class Refused extends Error {\n  constructor(readonly from: Status) { super(from); }\n}',
  "domain/orders/status.ts":
    'import { Refused } from "./errors.ts";\nexport type Status = "paid";\nexport const refuse = (from: Status) => new Refused(from);',
};

const EXPECTED = [
  "application-imports-domain-its-feature-and-ports application/checkout/create-checkout.ts → application/catalog/manage-products.ts",
  "application-imports-domain-its-feature-and-ports application/checkout/uses-adapter.ts → adapters/http/routes.ts",
  "domain-imports-only-domain domain/catalog/clock.ts → fs",
  "domain-imports-only-domain domain/catalog/product.ts → adapters/postgres/repo.ts",
  "drivers-never-import-use-cases adapters/postgres/repo.ts → application/catalog/manage-products.ts",
  "kit-imports-no-app kit/bad.ts → domain/orders/order.ts",
  "no-cycles adapters/jobs/a.ts → adapters/jobs/b.ts",
  "no-orphans adapters/dead.ts → adapters/dead.ts",
  "not-to-dev-dep adapters/uses-dev-dep.ts → node_modules/stripe",
  "not-to-test adapters/uses-test.ts → tests/support/builder.ts",
  "runtime-free-core domain/catalog/clock.ts → fs",
  "simulator-stands-alone provider-sim/app.ts → adapters/http/routes.ts",
];

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), "dependency-rules-"));
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), `${content}\n`);
  }
  copyFileSync(join(root, ".dependency-cruiser.cjs"), join(tree, ".dependency-cruiser.cjs"));
  // Which packages are devDependencies comes from the project's own manifest.
  copyFileSync(join(root, "package.json"), join(tree, "package.json"));
  writeFileSync(
    join(tree, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, moduleResolution: "bundler" } }),
  );
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
});

afterAll(() => rmSync(tree, { recursive: true, force: true }));

function depcruise(outputType: "json" | "err") {
  return Bun.spawn(
    [
      join(root, "node_modules/.bin/depcruise"),
      "domain",
      "application",
      "adapters",
      "provider-sim",
      "kit",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      outputType,
    ],
    { cwd: tree, stdout: "pipe", stderr: "pipe" },
  );
}

async function violations(): Promise<string[]> {
  const out = await new Response(depcruise("json").stdout).text();
  const result = JSON.parse(out) as {
    summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] };
  };
  // A package resolves through the node_modules link to wherever it is installed: named by package.
  const named = (path: string) => path.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, "node_modules/$1");
  const found = result.summary.violations.map((v) => `${v.rule.name} ${v.from} → ${named(v.to)}`);
  return [...new Set(found)].sort();
}

describe("the layer rules", () => {
  test("each rule catches its violation and nothing the rules allow", async () => {
    expect(await violations()).toEqual(EXPECTED);
  }, 30_000);

  test("the check's own output format fails the run", async () => {
    const run = depcruise("err");
    const [out, exitCode] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    expect(exitCode).toBe(EXPECTED.length);
    expect(out).toContain("simulator-stands-alone: provider-sim/app.ts → adapters/http/routes.ts");
  }, 30_000);
});
