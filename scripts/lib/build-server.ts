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
 * Where a module's source map is kept: `marketplace.map` for `marketplace.js`. Bun reads
 * `marketplace.js.map` beside a module whether or not the module links it.
 */
const unlinkedMapName = (name: string) => name.replace(/\.js\.map$/, ".map");

/** The source map of a bundle built by `buildServer`. */
export const sourceMapOf = (bundle: string) => unlinkedMapName(`${bundle}.map`);

/** The bundle's file name a source map written by `buildServer` belongs to: `marketplace.js`. */
export const bundleNameOf = (sourceMap: string) => basename(sourceMap).replace(/\.map$/, ".js");

/**
 * Bundles the marketplace (adapters/main.ts and everything it imports, or `entry`) into one entry
 * module for Bun and returns its path. About 650 modules (the schema library alone is 265 files)
 * become one, which takes the server about 10 MB less resident memory (see
 * docs/decisions/bundled-server.md).
 *
 * Whitespace and comments are left out and expressions written shorter (2 MB less resident memory);
 * identifiers keep their names, so a stack trace names its functions and an error's `name` is its
 * class's. The source map is written beside the bundle (`sourceMapOf`) where Bun does not look for
 * it: Bun reads a module's map as soon as any stack is read, and pino reads one whenever a logger
 * is made, which kept 5.6 MB of decoded map resident for as long as the server ran. `bun
 * scripts/map-trace.ts < trace.txt` turns a logged trace's positions into source files and lines.
 *
 * The build goes to a folder of its own first and then moves in: chunks (named by their content, so
 * an existing one is the same file) before the entry and its map, each by an atomic rename. A server
 * starting meanwhile reads the old entry or the new one, never half of one, and a running server's
 * chunks stay where it may still import them from. `outfile` must sit one level below the root.
 */
export async function buildServer(
  outfile = SERVER_BUNDLE,
  entry = projectPath("adapters", "main.ts"),
): Promise<string> {
  const target = resolve(outfile);
  const dir = dirname(target);
  if (dirname(dir) !== ROOT) throw new Error(`the bundle must sit one level below ${ROOT}, not at ${target}`);
  const staging = mkdtempSync(join(ROOT, ".build-"));
  try {
    const result = await Bun.build({
      entrypoints: [entry],
      outdir: staging,
      naming: { entry: basename(target), chunk: "chunk-[hash].[ext]" },
      target: "bun",
      // A module imported only when needed (the embedded database's) stays a chunk of its own, so
      // its imports are not hoisted into the entry and loaded at every start.
      splitting: true,
      sourcemap: "external",
      minify: { whitespace: true, syntax: true },
      external: LOADED_WHEN_USED,
      throw: false,
    });
    if (!result.success) {
      throw new Error(`the server does not build:\n${result.logs.map((log) => String(log)).join("\n")}`);
    }
    const entryFiles = [basename(target), `${basename(target)}.map`];
    const chunks = readdirSync(staging).filter((name) => !entryFiles.includes(name));
    mkdirSync(dir, { recursive: true });
    for (const name of [...chunks, ...entryFiles]) renameSync(join(staging, name), join(dir, unlinkedMapName(name)));
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
