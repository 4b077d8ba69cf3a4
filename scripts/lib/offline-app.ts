/**
 * The real HTTP app with every use case standing in as "unavailable": enough to serve /health,
 * the OpenAPI document and the routing table without a database. Used by the Deno smoke run and
 * by the OpenAPI export, so neither needs its own copy of the dependency list.
 */

import { type AppDeps, createApp } from "../../adapters/http/app.ts";
import { createInProcessChangeSignal } from "../../adapters/signals/in-process-change-signal.ts";
import { describeDrivers } from "../../application/catalog/describe-drivers.ts";
import { createLogger } from "../../kit/logger.ts";

const unavailable = (): Promise<never> => Promise.reject(new Error("not available without a database"));

export function createOfflineApp(name: string) {
  const logger = createLogger({ level: "silent", name });
  const known: Partial<AppDeps> = {
    logger,
    accessLogger: logger,
    bodyLimitBytes: 1_048_576,
    // No database, so no account: every token is refused.
    auth: {
      secret: "offline-app-secret-0123456789-abcdefghij",
      issuer: "marketplace",
      ttlSeconds: 60,
      accounts: { find: async () => undefined },
    },
    changes: createInProcessChangeSignal(),
    describeDrivers,
    checkReadiness: async () => ({ database: true, migrations: true }),
    // No file reads here (Deno runs it without read access): the pages' assets answer 404.
    pages: {
      assets: {},
      apiReference: {
        script: "/assets/api-reference.js",
        style: "/assets/api-reference.css",
        start: "/assets/api-reference-start.js",
      },
      simulatorUrl: undefined,
      console: () => Promise.reject(new Error("no console offline")),
    },
    instanceId: name,
  };
  // Every use case not listed above answers as unavailable, whatever AppDeps grows to hold.
  const deps = new Proxy(known, {
    get: (target, key) => (key in target ? target[key as keyof AppDeps] : unavailable),
  }) as AppDeps;
  return createApp(deps);
}
