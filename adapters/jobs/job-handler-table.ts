import type { JobContext, JobHandlers, JobTypes, StoredPayload } from "../../application/shared/jobs.ts";

/** A handler as the worker calls it: with the payload as stored. */
export type Handle = (payload: StoredPayload, context: JobContext) => Promise<void>;

/** Each kind's handler, given its payload as its type reads it back. */
export function handlesByKind<Types extends JobTypes>(
  types: Types,
  handlers: JobHandlers<Types>,
): ReadonlyMap<string, Handle> {
  const table = new Map<string, Handle>();
  for (const [kind, { read }] of Object.entries(types)) {
    // JobHandlers pairs each kind's handler with its type, so it takes what that type's `read` returns.
    const handler = handlers[kind] as (payload: unknown, context: JobContext) => Promise<void>;
    table.set(kind, (payload, context) => handler(read(payload), context));
  }
  return table;
}
