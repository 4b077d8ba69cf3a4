/**
 * `npm run check:layers`: domain/ depends on nothing else, application/ only on domain/, and neither
 * touches a runtime (node:*, bun, Bun.*, Deno.*, process.env). The rules live in ./lib/layer-rules.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findLayerViolations, type SourceFile } from "./lib/layer-rules.ts";

const root = join(import.meta.dir, "..");
const LAYERS = ["domain", "application"];

function listTypeScript(dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${dir}/${name.replaceAll("\\", "/")}`);
}

const files: SourceFile[] = LAYERS.flatMap(listTypeScript)
  .sort()
  .map((path) => ({ path, content: readFileSync(join(root, path), "utf8") }));

if (files.length === 0) {
  // An empty walk means the script is looking in the wrong place, not that the layers are clean.
  console.error(`layer check: no .ts files found under ${LAYERS.join("/ or ")}/`);
  process.exit(1);
}

const violations = findLayerViolations(files);
for (const { path, line, reason } of violations) console.error(`${path}:${line}: ${reason}`);
if (violations.length > 0) process.exit(1);
console.log(`layer check: ${files.length} files clean`);
