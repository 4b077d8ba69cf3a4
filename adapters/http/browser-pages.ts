import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { projectPath } from "../asset-paths.ts";
import { consoleBundle } from "./console-bundle.ts";
import { type BrowserPages, FAVICON_ASSET, type StaticAsset } from "./page-routes.ts";

const PAGES_DIR = projectPath("adapters", "http", "pages");

const tagOf = (hash: ReturnType<typeof createHash>) => `"${hash.digest("base64url").slice(0, 27)}"`;

function asset(bytes: Uint8Array, contentType: string, cacheControl: string): StaticAsset {
  const body = new Uint8Array(bytes);
  const etag = tagOf(createHash("sha256").update(body));
  return { body: () => body, contentType, etag, cacheControl };
}

/** A file's entity tag, hashed through a small buffer: the file itself is not held. */
function tagOfFile(fd: number): string {
  const hash = createHash("sha256");
  const chunk = new Uint8Array(64 * 1024);
  for (
    let at = 0, read = readSync(fd, chunk, 0, chunk.length, 0);
    read > 0;
    read = readSync(fd, chunk, 0, chunk.length, at)
  ) {
    hash.update(chunk.subarray(0, read));
    at += read;
  }
  return tagOf(hash);
}

/**
 * The docs UI as installed from npm: its self-contained browser build (4 MB), which loads nothing
 * else. Only its tag is computed at start; the bytes are read on the first request for them,
 * through the descriptor opened at start (a reinstall replaces the file, not what it holds open),
 * and served only if they still hash to the tag the name and the year-long cache promise.
 */
function docsScript(): StaticAsset {
  const entry = fileURLToPath(import.meta.resolve("@scalar/api-reference"));
  const fd = openSync(join(dirname(entry), "browser", "standalone.js"), "r");
  const etag = tagOfFile(fd);
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  const body = () => {
    if (bytes === undefined) {
      // Positioned reads (the hash's) leave the descriptor at the file's start.
      const read = new Uint8Array(readFileSync(fd));
      if (tagOf(createHash("sha256").update(read)) !== etag)
        throw new Error("the docs bundle changed on disk since start");
      bytes = read;
      closeSync(fd);
    }
    return bytes;
  };
  // Its name carries its hash, so a browser keeps it until an upgrade renames it.
  return {
    body,
    contentType: "text/javascript; charset=utf-8",
    etag,
    cacheControl: "public, max-age=31536000, immutable",
  };
}

let assets: { files: Record<string, StaticAsset>; docsScriptPath: string } | undefined;

/** Reads every file once per process; wiring a marketplace again (as tests do) reuses them. */
export function loadBrowserPages(options: { simulatorUrl: string | undefined }): BrowserPages {
  if (!assets) {
    const docs = docsScript();
    const docsName = `api-reference.${docs.etag.slice(1, 13)}.js`;
    assets = {
      files: {
        [docsName]: docs,
        [FAVICON_ASSET]: asset(readFileSync(join(PAGES_DIR, FAVICON_ASSET)), "image/svg+xml", "public, max-age=86400"),
      },
      docsScriptPath: `/assets/${docsName}`,
    };
  }
  return {
    assets: assets.files,
    docsScriptPath: assets.docsScriptPath,
    simulatorUrl: options.simulatorUrl,
    console: consoleBundle,
  };
}
