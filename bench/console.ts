import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { round } from "./tools.ts";

const CHROMIUM = "/usr/bin/chromium";

export interface ConsoleFigures {
  /** Navigation start to the sign-in form on screen, with nothing cached, in Chromium on loopback. */
  readonly first_load_p50_ms: number;
  readonly first_load_max_ms: number;
  readonly loads: number;
  /** What `/admin` loads before it can draw: its scripts and stylesheet, gzipped. */
  readonly first_bundle_gzip_kb: number;
}

async function firstBundleBytes(url: string): Promise<number> {
  const html = await (await fetch(`${url}/admin`)).text();
  const names = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
  let total = 0;
  for (const name of names)
    total += Bun.gzipSync(new Uint8Array(await (await fetch(`${url}/assets/${name}`)).arrayBuffer())).length;
  return total;
}

/** Loads `/admin` `loads` times, each in a fresh browser context (an empty cache). */
export async function measureConsole(options: { url: string; loads: number; say: (line: string) => void }) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < options.loads; i += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${options.url}/admin`, { waitUntil: "commit" });
      // Timed inside the page from its own navigation start; when the form is already there, the time read
      // includes the driver's round trip, so the figure errs high.
      const shown = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const done = () => document.querySelector("button[type=submit]");
            if (done()) return resolve(performance.now());
            new MutationObserver((_, observer) => {
              if (done()) {
                observer.disconnect();
                resolve(performance.now());
              }
            }).observe(document, { childList: true, subtree: true });
          }),
      );
      times.push(shown);
      await context.close();
    }
    times.sort((a, b) => a - b);
    const figures: ConsoleFigures = {
      first_load_p50_ms: round(times[Math.floor(times.length / 2)] ?? 0, 1),
      first_load_max_ms: round(times.at(-1) ?? 0, 1),
      loads: times.length,
      first_bundle_gzip_kb: round((await firstBundleBytes(options.url)) / 1024, 1),
    };
    options.say(
      `console: first load p50 ${figures.first_load_p50_ms} ms (max ${figures.first_load_max_ms}), first bundle ${figures.first_bundle_gzip_kb} KB gzipped`,
    );
    return figures;
  } finally {
    await browser.close();
  }
}
