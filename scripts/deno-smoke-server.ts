/**
 * Deno entry for `scripts/deno-smoke.ts`: the real HTTP app with in-memory stand-ins, served by
 * `Deno.serve` on 127.0.0.1 at the port given as the first argument. Not meant for Bun.
 */
import { createOfflineApp } from "./lib/offline-app.ts";

// The repo's types are bun-types; this declares only the part of Deno's global used here.
declare const Deno: {
  readonly args: readonly string[];
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly finished: Promise<void> };
};

const port = Number(Deno.args[0]);
if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
  throw new Error(`usage: deno run scripts/deno-smoke-server.ts <port> (got ${JSON.stringify(Deno.args[0])})`);
}

const app = createOfflineApp("deno-smoke");
// onListen replaces Deno's default "Listening on ..." line, which would only add noise to the smoke output.
Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
