import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** Where `npm run build` writes the server: one level below the root, as adapters/asset-paths.ts requires. */
export const SERVER_BUNDLE = join(ROOT, "dist", "marketplace.js");

/**
 * Packages left out of the bundle and loaded from node_modules when first used: the embedded
 * PostgreSQL (only without `DATABASE_URL`; it finds its WebAssembly next to its own module) and the
 * SMTP client (only with the first email). Inlined, a server that never uses them would parse them.
 */
const LOADED_WHEN_USED = ["@electric-sql/pglite", "@electric-sql/pglite-socket", "nodemailer"];

/**
 * Bundles the marketplace (adapters/main.ts and everything it imports) into one module for Bun, with
 * a linked source map so stack traces name the source files. One module instead of some 650 (the
 * schema library alone is 265 files) takes the server about 10 MB less resident memory.
 * `outfile` must sit one level below the root (see adapters/asset-paths.ts).
 */
export async function buildServer(outfile = SERVER_BUNDLE): Promise<string> {
  const dir = join(outfile, "..");
  if (join(dir, "..") !== ROOT) throw new Error(`the bundle must sit one level below ${ROOT}, not at ${outfile}`);
  const result = await Bun.build({
    entrypoints: [join(ROOT, "adapters", "main.ts")],
    outdir: dir,
    naming: { entry: outfile.slice(dir.length + 1), chunk: "chunk-[hash].[ext]" },
    target: "bun",
    // A module imported only when needed (the embedded database's) stays a chunk of its own, so its
    // imports are not hoisted into the entry and loaded at every start.
    splitting: true,
    sourcemap: "linked",
    external: LOADED_WHEN_USED,
    throw: false,
  });
  if (!result.success) {
    throw new Error(`the server does not build:\n${result.logs.map((log) => String(log)).join("\n")}`);
  }
  return outfile;
}
