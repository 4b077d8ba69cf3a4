import { afterAll, expect, test } from "bun:test";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The production install's budget: what `npm ci --omit=dev` may put on disk. */
const BUDGET_MB = 120;

const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "production-install-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Space on disk under `path`, in blocks as `du` counts it; a link counts as itself. */
function diskBytes(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.blocks * 512;
  return readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), stat.blocks * 512);
}

test(`npm ci --omit=dev from the lockfile stays under ${BUDGET_MB} MB and patches the database driver and the log redaction`, async () => {
  // What the install reads: the manifest, the lockfile, the postinstall script and the patches.
  for (const file of ["package.json", "package-lock.json", "patches"])
    cpSync(join(root, file), join(dir, file), { recursive: true });
  mkdirSync(join(dir, "scripts"));
  cpSync(join(root, "scripts/lockfile-platforms.mjs"), join(dir, "scripts/lockfile-platforms.mjs"));
  const install = Bun.spawn(["npm", "ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, output] = await Promise.all([install.exited, new Response(install.stderr).text()]);
  expect(code === 0 ? "" : output).toBe("");

  const megabytes = diskBytes(join(dir, "node_modules")) / 1024 / 1024;
  expect(megabytes).toBeLessThan(BUDGET_MB);
  // Nothing of the development tools came along.
  const installed = readdirSync(join(dir, "node_modules"));
  for (const tool of ["@biomejs", "bun", "deno", "playwright-core", "@scalar"]) expect(installed).not.toContain(tool);
  const connection = readFileSync(join(dir, "node_modules/postgres/src/connection.js"), "utf8");
  expect(connection).toMatch(/function nextWrite\(fn\) \{\n.*\n {4}if \(!socket\) \{/);
  const redaction = readFileSync(join(dir, "node_modules/@pinojs/redact/index.js"), "utf8");
  expect(redaction).toContain("const parts = parsedPath(path)");
}, 120_000);
