import { afterAll, beforeAll } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's `chromium` package; `.ci/run` installs it when missing. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser tests skipped: ${CHROMIUM} not found (apt-get install chromium)`);

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile that makes no traffic of its own (updates, sync, QUIC). */
export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "marketplace-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A browser for a test file: opened before its tests (when Chromium is there), closed after them.
 * `newPage` opens a tab; the file's tests use `describe.skipIf(!hasChromium)`.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (hasChromium) browser = await openBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    newPage(): Promise<Page> {
      if (!browser) throw new Error("no browser: useBrowser's setup has not run, or Chromium is missing");
      return browser.context.newPage();
    },
  };
}

/** Every request a page makes and every script error or console error it shows. */
export function watchPage(page: Page) {
  const requests: string[] = [];
  const errors: { readonly message: string; readonly url: string }[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("websocket", (socket) => requests.push(socket.url()));
  page.on("pageerror", (error) => errors.push({ message: `page error: ${error.message}`, url: page.url() }));
  page.on("console", (message) => {
    if (message.type() === "error")
      errors.push({ message: `console error: ${message.text()}`, url: message.location().url });
  });
  return {
    requests,
    /** Script errors, and console errors of pages and resources on `origin`. */
    errorsOn: (origin: string) =>
      errors
        .filter((e) => e.message.startsWith("page error") || e.url.startsWith(origin))
        .map((e) => `${e.message} (${e.url})`),
    /** Requests that left `origin`; inline `data:` and `blob:` URLs never reach a network. */
    foreign: (origin: string) =>
      requests.filter((url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin),
  };
}
