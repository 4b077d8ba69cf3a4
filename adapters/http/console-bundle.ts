import { createHash } from "node:crypto";
import { join } from "node:path";
import type { ConsoleBundle, ConsoleName, StaticAsset } from "./page-routes.ts";

/** The two consoles, each a page of its own over the same client code. */
const CONSOLES: Readonly<Record<ConsoleName, { entry: string; title: string }>> = {
  admin: { entry: "admin", title: "Marketplace admin" },
  account: { entry: "account", title: "Your account" },
};

const WEB_DIR = join(import.meta.dir, "..", "..", "web");
/** The page checkout returns to: written as HTML, its script built with the consoles. */
const ORDER_PAGE = join(WEB_DIR, "order-status", "order-status.html");
const ORDER_PAGE_SCRIPT = join(WEB_DIR, "order-status", "order-status.ts");
const IMMUTABLE = "public, max-age=31536000, immutable";

function asset(bytes: Uint8Array<ArrayBuffer>, contentType: string, cacheControl: string): StaticAsset {
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return { body: () => bytes, contentType, etag, cacheControl };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

/**
 * Builds `web/` with Bun's bundler: one entry per console and one for the order status page, the
 * code they share split into chunks, one stylesheet. Runs in a few milliseconds, so the marketplace builds it as it starts and a
 * deployment has no build step to forget; everything it serves comes from this repository.
 */
export async function buildConsole(): Promise<ConsoleBundle> {
  const entries = Object.values(CONSOLES).map((console) => join(WEB_DIR, console.entry, `${console.entry}.tsx`));
  const result = await Bun.build({
    entrypoints: [...entries, ORDER_PAGE_SCRIPT, join(WEB_DIR, "shared", "console.css")],
    target: "browser",
    minify: true,
    splitting: true,
    jsx: { development: false },
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  });
  if (!result.success) throw new AggregateError(result.logs, "the web console does not build");
  const assets: Record<string, StaticAsset> = {};
  const named = new Map<string, string>();
  const chunks: string[] = [];
  for (const output of result.outputs) {
    const name = output.path.replace(/^\.\//, "");
    assets[name] = asset(new Uint8Array(await output.arrayBuffer()), output.type, IMMUTABLE);
    if (output.kind === "chunk") chunks.push(name);
    else named.set(name.slice(0, name.lastIndexOf("-")), name);
  }
  const style = named.get("console") as string;
  const page = (console: ConsoleName) =>
    asset(
      new TextEncoder().encode(shell(CONSOLES[console].title, named.get(console) as string, chunks, style)),
      "text/html; charset=utf-8",
      "no-cache",
    );
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
    assets,
  };
}

let built: Promise<ConsoleBundle> | undefined;

/** Built once per process; wiring the marketplace again (as tests do) reuses it. */
export const consoleBundle = () => {
  built ??= buildConsole();
  return built;
};
