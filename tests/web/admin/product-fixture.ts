import { beforeAll } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { useBrowser, watchPage } from "../../support/browser.ts";
import { type Account, anAdminAccount, signIn } from "../../support/console.ts";
import { useTestDatabase } from "../../support/database.ts";
import { adminToken, type E2eOptions, useE2e } from "../../support/e2e.ts";

/** A marketplace, an admin who signs in to its console, their API token, and a browser. */
export function useProductConsole(options: E2eOptions = {}) {
  const db = useTestDatabase();
  const e2e = useE2e(db, options);
  const browser = useBrowser();
  const state: { admin?: Account; token: string } = { token: "" };

  beforeAll(async () => {
    state.admin = await anAdminAccount(e2e);
    state.token = await adminToken(e2e);
  }, 30_000);

  /** A new page signed in at `/admin{path}`, watched for errors; `prepare` runs before it opens. */
  async function open(path: string, viewport = { width: 1280, height: 900 }, prepare?: (page: Page) => Promise<void>) {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await page.setViewportSize(viewport);
    await prepare?.(page);
    await signIn(page, e2e.url, "admin", state.admin as Account, path);
    return { page, watched };
  }

  /** A product's page, once its heading shows. */
  async function openProduct(
    id: string,
    viewport?: { width: number; height: number },
    prepare?: (page: Page) => Promise<void>,
  ) {
    const opened = await open(`/products/${id}`, viewport, prepare);
    await opened.page.getByRole("heading", { level: 1 }).waitFor();
    return opened;
  }

  return {
    e2e,
    open,
    openProduct,
    /** The admin's API token, once `beforeAll` ran. */
    token: () => state.token,
    /**
     * What Chromium itself logs for a response the test made the API refuse: its network log, not
     * a script error. Any other console error still fails the test.
     */
    refusedLoad: (path: string, status = "422 (Unprocessable Entity)") =>
      `console error: Failed to load resource: the server responded with a status of ${status} (${e2e.url}${path})`,
  };
}

/** A driver's configuration input by its key; the first is the top-level one (`management` nests last). */
export const configInput = (page: Page, key: string) => page.getByLabel(new RegExp(`^${key}(\\s*\\*)?$`)).first();

/** A section of the product page by its heading. */
export const section = (page: Page, name: string) => page.getByRole("region", { name });

/** The outcome an action button reports beside itself. */
export const statusBeside = (page: Page, button: string) =>
  page.getByRole("button", { name: button }).locator("xpath=following-sibling::*[@role='status']");

/** The texts an input is described by: its help text and the error for it. */
export const descriptionOf = (input: Locator) =>
  input.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" | "),
  );
