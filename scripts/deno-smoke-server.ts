/**
 * Deno entry for `scripts/deno-smoke.ts`: the real HTTP app with in-memory stand-ins, served by
 * `Deno.serve` on 127.0.0.1 at the port given as the first argument. Not meant for Bun.
 */
import { type AppDeps, createApp } from "../adapters/http/app.ts";
import { createLogger } from "../adapters/logging/logger.ts";

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

const unavailable = (): Promise<never> => Promise.reject(new Error("not available in the Deno smoke server"));

const deps: AppDeps = {
  logger: createLogger({ level: "silent", name: "deno-smoke" }),
  bodyLimitBytes: 1_048_576,
  auth: { secret: "deno-smoke-secret-0123456789-abcdefghij", issuer: "marketplace", ttlSeconds: 60 },
  registerCustomer: unavailable,
  authenticate: unavailable,
  getUser: unavailable,
  checkReadiness: async () => ({ database: true, migrations: true }),
};

const app = createApp(deps);
// onListen replaces Deno's default "Listening on ..." line, which would only add noise to the smoke output.
Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
