import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { projectPath } from "../asset-paths.ts";
import { escapeHtml } from "./html.ts";
import type { ConsoleBundle, ConsoleName, StaticAsset } from "./page-routes.ts";

/** The two consoles, each a page of its own over the same client code. */
const CONSOLES: Readonly<Record<ConsoleName, { entry: string; title: string }>> = {
  admin: { entry: "admin", title: "Marketplace admin" },
  account: { entry: "account", title: "Your account" },
};

const WEB_DIR = projectPath("web");
/** The page checkout returns to: written as HTML, its script built with the consoles. */
const ORDER_PAGE = join(WEB_DIR, "order-status", "order-status.html");
const ORDER_PAGE_SCRIPT = join(WEB_DIR, "order-status", "order-status.ts");
/** The product page's buy form, for a customer signed in: written into the server-rendered page. */
const BUY_FORM_SCRIPT = join(WEB_DIR, "product", "buy-form.ts");
const IMMUTABLE = "public, max-age=31536000, immutable";

function asset(bytes: Uint8Array<ArrayBuffer>, contentType: string, cacheControl: string): StaticAsset {
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return { body: () => bytes, contentType, etag, cacheControl };
}

function shell(title: string, script: string, preload: readonly string[], style: string): string {
  const links = preload.map((name) => `<link rel="modulepreload" href="/assets/${escapeHtml(name)}">`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/assets/${escapeHtml(style)}">${links}
<script type="module" src="/assets/${escapeHtml(script)}"></script></head>
<body><div id="app"></div><noscript>This console needs JavaScript.</noscript></body></html>
`;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Bun's bundler in a child process: what it allocates goes with the child instead of staying in
 * the server's heap (about 11 MB of resident memory when built in-process).
 */
async function bundle(entrypoints: readonly string[]): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  const outdir = mkdtempSync(join(tmpdir(), "marketplace-console-"));
  try {
    const build = Bun.spawn(
      [
        process.execPath,
        "build",
        ...entrypoints,
        `--outdir=${outdir}`,
        "--target=browser",
        "--production",
        "--splitting",
        "--entry-naming=[name]-[hash].[ext]",
        "--chunk-naming=chunk-[hash].[ext]",
        "--asset-naming=[name]-[hash].[ext]",
      ],
      { cwd: projectPath(), stdout: "ignore", stderr: "pipe" },
    );
    const [status, errors] = await Promise.all([build.exited, new Response(build.stderr).text()]);
    if (status !== 0) throw new Error(`the web console does not build:\n${errors}`);
    return new Map(readdirSync(outdir).map((name) => [name, new Uint8Array(readFileSync(join(outdir, name)))]));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A chunk named by a static `import … from` or `export … from` of the bundler's output (not an `import()`). */
const STATIC_CHUNK = /(?:\bfrom\s*|\bimport\s*)"\.\/(chunk-[\w-]+\.js)"/g;

/**
 * The chunks `entry` needs before it runs, transitively: what its page preloads. Chunks reached
 * only through `import()` (the pages behind sign-in) are fetched when first shown.
 */
function staticImports(entry: string, outputs: ReadonlyMap<string, Uint8Array>): string[] {
  const found = new Set<string>();
  const visit = (name: string) => {
    const code = new TextDecoder().decode(outputs.get(name));
    for (const match of code.matchAll(STATIC_CHUNK)) {
      const chunk = match[1] as string;
      if (found.has(chunk) || !outputs.has(chunk)) continue;
      found.add(chunk);
      visit(chunk);
    }
  };
  visit(entry);
  return [...found].sort();
}

/**
 * Builds `web/` with Bun's bundler: one entry per console, one for the order status page and one for the product page's buy form, the
 * code they share split into chunks, one stylesheet. It takes a fraction of a second, so the
 * marketplace builds it as it starts and a deployment has no build step to forget; everything it
 * serves comes from this repository.
 */
export async function buildConsole(): Promise<ConsoleBundle> {
  const entries = Object.values(CONSOLES).map((console) => join(WEB_DIR, console.entry, `${console.entry}.tsx`));
  const outputs = await bundle([
    ...entries,
    ORDER_PAGE_SCRIPT,
    BUY_FORM_SCRIPT,
    join(WEB_DIR, "shared", "console.css"),
  ]);
  const assets: Record<string, StaticAsset> = {};
  const named = new Map<string, string>();
  for (const [name, bytes] of outputs) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) throw new Error(`the web console's build wrote ${name}, which it does not know how to serve`);
    assets[name] = asset(bytes, type, IMMUTABLE);
    if (!name.startsWith("chunk-")) named.set(name.slice(0, name.lastIndexOf("-")), name);
  }
  const style = named.get("console") as string;
  const page = (console: ConsoleName) => {
    const script = named.get(console) as string;
    return asset(
      new TextEncoder().encode(shell(CONSOLES[console].title, script, staticImports(script, outputs), style)),
      "text/html; charset=utf-8",
      "no-cache",
    );
  };
  const orderPage = (await Bun.file(ORDER_PAGE).text()).replace(
    'src="order-status.ts"',
    `src="/assets/${named.get("order-status")}"`,
  );
  return {
    pages: {
      admin: page("admin"),
      account: page("account"),
      order: asset(new TextEncoder().encode(orderPage), "text/html; charset=utf-8", "no-cache"),
    },
    scripts: { buyForm: named.get("buy-form") as string },
    assets,
  };
}

let built: Promise<ConsoleBundle> | undefined;

/** Built once per process; wiring the marketplace again (as tests do) reuses it. */
export const consoleBundle = () => {
  built ??= buildConsole().catch((error: unknown) => {
    // A failed build (a child that could not start) is tried again by the next request.
    built = undefined;
    throw error;
  });
  return built;
};
