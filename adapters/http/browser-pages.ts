import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { projectPath } from "../asset-paths.ts";
import { consoleBundle } from "./console-bundle.ts";
import { type ApiReferenceAssets, type BrowserPages, FAVICON_ASSET, type StaticAsset } from "./page-routes.ts";

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
 * A file as installed from npm, served under a name that carries its hash. Only its tag is
 * computed at start; the bytes are read on the first request for them, through the descriptor
 * opened at start (a reinstall replaces the file, not what it holds open), and served only if
 * they still hash to the tag the name and the year-long cache promise.
 */
function installedFile(path: string, contentType: string): StaticAsset {
  const fd = openSync(path, "r");
  const etag = tagOfFile(fd);
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  const body = () => {
    if (bytes === undefined) {
      // Positioned reads (the hash's) leave the descriptor at the file's start.
      const read = new Uint8Array(readFileSync(fd));
      if (tagOf(createHash("sha256").update(read)) !== etag) throw new Error(`${path} changed on disk since start`);
      bytes = read;
      closeSync(fd);
    }
    return bytes;
  };
  return { body, contentType, etag, cacheControl: "public, max-age=31536000, immutable" };
}

const SCRIPT = "text/javascript; charset=utf-8";

/**
 * The API reference: Swagger UI's self-contained browser build (swagger-ui-dist, which loads
 * nothing from another host) and the small script that starts it on our document.
 */
function apiReferenceFiles(): Record<keyof ApiReferenceAssets, [string, StaticAsset]> {
  const dist = dirname(fileURLToPath(import.meta.resolve("swagger-ui-dist/package.json")));
  const named = (name: string, extension: string, asset: StaticAsset): [string, StaticAsset] => [
    `${name}.${asset.etag.slice(1, 13)}.${extension}`,
    asset,
  ];
  return {
    script: named("api-reference", "js", installedFile(join(dist, "swagger-ui-bundle.js"), SCRIPT)),
    style: named("api-reference", "css", installedFile(join(dist, "swagger-ui.css"), "text/css; charset=utf-8")),
    start: named("api-reference-start", "js", installedFile(join(PAGES_DIR, "api-reference-start.js"), SCRIPT)),
  };
}

let assets: { files: Record<string, StaticAsset>; apiReference: ApiReferenceAssets } | undefined;

/** Reads every file once per process; wiring a marketplace again (as tests do) reuses them. */
export function loadBrowserPages(options: { simulatorUrl: string | undefined }): BrowserPages {
  if (!assets) {
    const reference = apiReferenceFiles();
    assets = {
      files: {
        ...Object.fromEntries(Object.values(reference)),
        [FAVICON_ASSET]: asset(readFileSync(join(PAGES_DIR, FAVICON_ASSET)), "image/svg+xml", "public, max-age=86400"),
      },
      apiReference: {
        script: `/assets/${reference.script[0]}`,
        style: `/assets/${reference.style[0]}`,
        start: `/assets/${reference.start[0]}`,
      },
    };
  }
  return {
    assets: assets.files,
    apiReference: assets.apiReference,
    simulatorUrl: options.simulatorUrl,
    console: consoleBundle,
  };
}
