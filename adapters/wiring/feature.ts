import type { JobHandler } from "../../application/shared/jobs.ts";
import type { AppDeps } from "../http/app.ts";

/** What a feature's wiring module gives the composition root. */
export interface Feature<Routes extends Partial<AppDeps>> {
  /** The use cases its HTTP routes call, by the names the routes know them by. */
  readonly routes: Routes;
  /** Its job handlers, by job kind. */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
}

/** One handler table for the worker; two features claiming one kind is a wiring mistake. */
export function jobsOf(features: readonly Feature<Partial<AppDeps>>[]): Record<string, JobHandler> {
  const table: Record<string, JobHandler> = {};
  for (const feature of features) {
    for (const [kind, handler] of Object.entries(feature.jobs ?? {})) {
      if (kind in table) throw new Error(`two features handle the job kind ${kind}`);
      table[kind] = handler;
    }
  }
  return table;
}
