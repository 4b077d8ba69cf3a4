import type { AppDeps } from "../http/app.ts";
import type { FeatureJobs, JobKind, MarketplaceJobHandlers } from "./job-kinds.ts";

/** What a feature's wiring module gives the composition root. */
export interface Feature<UseCases extends Partial<AppDeps>> {
  /** The use cases its HTTP routes call, by the names the routes know them by. */
  readonly useCases: UseCases;
  /** Its job handlers, by job kind. */
  readonly jobs?: FeatureJobs;
}

type HandledBy<F> = F extends { readonly jobs: infer Jobs } ? keyof Jobs : never;

/** Fails to compile, naming the kinds, when some job kind has no handler in any feature. */
type EveryKindHandled<F> = [Exclude<JobKind, HandledBy<F>>] extends [never]
  ? unknown
  : { readonly unhandledJobKinds: Exclude<JobKind, HandledBy<F>> };

/**
 * One handler table for the worker. A job kind no feature handles does not compile; two features
 * handling one kind is a wiring mistake.
 */
export function jobsOf<const Features extends readonly Feature<Partial<AppDeps>>[]>(
  features: Features & EveryKindHandled<Features[number]>,
): MarketplaceJobHandlers {
  const table: Record<string, unknown> = {};
  for (const feature of features) {
    for (const [kind, handler] of Object.entries(feature.jobs ?? {})) {
      if (kind in table) throw new Error(`two features handle the job kind ${kind}`);
      table[kind] = handler;
    }
  }
  return table as MarketplaceJobHandlers;
}
