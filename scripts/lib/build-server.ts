import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { projectPath } from "../../adapters/asset-paths.ts";

const ROOT = projectPath();

/** Where `npm run build` writes the server: one level below the root, as adapters/asset-paths.ts requires. */
export const SERVER_BUNDLE = projectPath("dist", "marketplace.js");

/**
 * Packages left out of the bundle and loaded from node_modules when first used: the embedded
 * PostgreSQL (only without `DATABASE_URL`; it finds its WebAssembly next to its own module) and the
 * SMTP client (only with the first email). Inlined, a server that never uses them would parse them.
 */
const LOADED_WHEN_USED = ["@electric-sql/pglite", "@electric-sql/pglite-socket", "nodemailer"];

/**
 * Bundles the marketplace (adapters/main.ts and everything it imports) into one entry module for
 * Bun, with a linked source map so stack traces name the source files, and returns its path. About
 * 650 modules (the schema library alone is 265 files) become one, which takes the server about
 * 10 MB less resident memory (see docs/decisions/bundled-server.md).
 *
 * The build goes to a folder of its own first and then moves in: chunks (named by their content, so
 * an existing one is the same file) before the entry and its map, each by an atomic rename. A server
 * starting meanwhile reads the old entry or the new one, never half of one, and a running server's
 * chunks stay where it may still import them from. `outfile` must sit one level below the root.
 */
export async function buildServer(outfile = SERVER_BUNDLE): Promise<string> {
  const target = resolve(outfile);
  const dir = dirname(target);
  if (dirname(dir) !== ROOT) throw new Error(`the bundle must sit one level below ${ROOT}, not at ${target}`);
  const staging = mkdtempSync(join(ROOT, ".build-"));
  try {
    const result = await Bun.build({
      entrypoints: [projectPath("adapters", "main.ts")],
      outdir: staging,
      naming: { entry: basename(target), chunk: "chunk-[hash].[ext]" },
      target: "bun",
      // A module imported only when needed (the embedded database's) stays a chunk of its own, so
      // its imports are not hoisted into the entry and loaded at every start.
      splitting: true,
      sourcemap: "linked",
      external: LOADED_WHEN_USED,
      throw: false,
    });
    if (!result.success) {
      throw new Error(`the server does not build:\n${result.logs.map((log) => String(log)).join("\n")}`);
    }
    const entry = [basename(target), `${basename(target)}.map`];
    const chunks = readdirSync(staging).filter((name) => !entry.includes(name));
    mkdirSync(dir, { recursive: true });
    for (const name of [...chunks, ...entry]) renameSync(join(staging, name), join(dir, name));
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
