import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserPages, FAVICON_ASSET, ORDER_PAGE_ASSET, type StaticAsset } from "./page-routes.ts";

const PAGES_DIR = join(import.meta.dir, "pages");

function asset(bytes: Uint8Array, contentType: string, cacheControl: string): StaticAsset {
  const body = new Uint8Array(bytes);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return { body, contentType, etag, cacheControl };
}

/** The docs UI as installed from npm: its self-contained browser build, which loads nothing else. */
function docsScript(): StaticAsset {
  const entry = fileURLToPath(import.meta.resolve("@scalar/api-reference"));
  const body = readFileSync(join(dirname(entry), "browser", "standalone.js"));
  // Its name carries its hash, so a browser keeps it until an upgrade renames it.
  return asset(body, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable");
}

let assets: { files: Record<string, StaticAsset>; docsScriptPath: string } | undefined;

/** Reads every file once per process; wiring a marketplace again (as tests do) reuses them. */
export function loadBrowserPages(options: { simulatorUrl: string | undefined }): BrowserPages {
  if (!assets) {
    const docs = docsScript();
    const docsName = `api-reference.${docs.etag.slice(1, 13)}.js`;
    // Small and edited with the code: a browser revalidates them (ETag) on every load.
    const page = (name: string, type: string) =>
      asset(readFileSync(join(PAGES_DIR, name)), `${type}; charset=utf-8`, "no-cache");
    assets = {
      files: {
        [docsName]: docs,
        [ORDER_PAGE_ASSET]: page(ORDER_PAGE_ASSET, "text/html"),
        "order-status.js": page("order-status.js", "text/javascript"),
        [FAVICON_ASSET]: asset(readFileSync(join(PAGES_DIR, FAVICON_ASSET)), "image/svg+xml", "public, max-age=86400"),
      },
      docsScriptPath: `/assets/${docsName}`,
    };
  }
  return { assets: assets.files, docsScriptPath: assets.docsScriptPath, simulatorUrl: options.simulatorUrl };
}
