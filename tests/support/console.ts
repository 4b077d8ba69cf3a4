import { beforeAll } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import type { Page } from "playwright-core";
import type { E2e } from "./e2e.ts";

const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

export interface Account {
  readonly email: string;
  readonly password: string;
}

/** An admin who signs in with a password, as a person at the console would. */
export async function anAdminAccount(e2e: E2e): Promise<Account> {
  const account = { email: `console-admin-${crypto.randomUUID()}@example.com`, password: "admin console password" };
  await e2e.marketplace.users.upsert({
    email: account.email,
    name: "Console Admin",
    role: "admin",
    passwordHash: await e2e.marketplace.hasher.hash(account.password),
  });
  return account;
}

/** An admin account made before the file's tests; its fields read it once it exists. */
export function useAdminAccount(e2e: E2e): Account {
  let account: Account | undefined;
  beforeAll(async () => {
    account = await anAdminAccount(e2e);
  }, 30_000);
  const made = () => {
    if (!account) throw new Error("the admin account is used before its setup ran");
    return account;
  };
  return {
    get email() {
      return made().email;
    },
    get password() {
      return made().password;
    },
  };
}

/** Opens `/admin` or `/account` at `path` and signs in through the form. */
export async function signIn(page: Page, url: string, console: "admin" | "account", account: Account, path = "") {
  await page.goto(`${url}/${console}${path}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/** axe-core's serious and critical findings on what the page shows now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern; once per document.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      targets: v.nodes.map((node) => String(node.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`);
}

/** Saves what the page shows to docs/screenshots/{name}.png, for the README. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A `datetime-local` value for `at`, on the browser's own clock, as an admin would type it. */
export const typedTime = (page: Page, at: number) =>
  page.evaluate((ms) => {
    const d = new Date(ms);
    const two = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
  }, at);
