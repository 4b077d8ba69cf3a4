import type {
  ExternalRefs,
  ExternalState,
  FulfillmentAdapter,
  FulfillmentContext,
  FulfillmentOutcome,
  OpsTask,
} from "../../../application/fulfillment/ports.ts";
import { FULFILLMENT_DRIVERS, type FulfillmentDriver } from "../../../domain/catalog/drivers.ts";

export type AdapterMethod = "fulfill" | "syncStatus" | "suspend" | "cancel" | "resume" | "renew" | "completeTask";

export interface AdapterCall {
  readonly method: AdapterMethod;
  readonly recordId: string;
  /** The reason suspend and cancel were given, or the result ops completed a task with. */
  readonly detail?: unknown;
}

/** Which optional methods the fake has; a real driver may leave any of them out. */
export interface OptionalMethods {
  readonly resume?: boolean;
  readonly renew?: boolean;
  readonly completeTask?: boolean;
}

/** What the external system says after each action, unless told otherwise. */
const STATE_AFTER: Record<Exclude<AdapterMethod, "fulfill" | "completeTask">, string> = {
  syncStatus: "active",
  suspend: "suspended",
  cancel: "cancelled",
  resume: "active",
  renew: "active",
};

export type RecordingFulfillmentAdapter = FulfillmentAdapter & {
  readonly calls: AdapterCall[];
  /** What the next `fulfill` calls return, or throw when it is an error. */
  fulfillWith(outcome: FulfillmentOutcome | Error): void;
  /** Every other method throws `error` until told `null`. */
  failWith(error: Error | null): void;
  /** How many times `method` was called. */
  count(method: AdapterMethod): number;
};

/** A driver that records every call and answers as it is told: each outcome, each failure. */
export function createRecordingFulfillmentAdapter(
  driver: FulfillmentDriver,
  optional: OptionalMethods = { resume: true, renew: true, completeTask: true },
): RecordingFulfillmentAdapter {
  const calls: AdapterCall[] = [];
  let outcome: FulfillmentOutcome | Error = {
    status: "active",
    external_reference_id: `${driver}-ref`,
    external_status: "active",
  };
  let failure: Error | null = null;

  const record = (method: AdapterMethod, context: FulfillmentContext, detail?: unknown) => {
    calls.push({ method, recordId: context.record.id, ...(detail === undefined ? {} : { detail }) });
    if (failure) throw failure;
  };
  const act =
    (method: keyof typeof STATE_AFTER) =>
    async (context: FulfillmentContext, reason?: string): Promise<ExternalState> => {
      record(method, context, reason);
      return { external_status: STATE_AFTER[method] };
    };

  const completeTask = async (
    context: FulfillmentContext,
    _task: OpsTask,
    result: Readonly<Record<string, unknown>>,
  ): Promise<ExternalRefs> => {
    record("completeTask", context, result);
    return { external_reference_id: `${driver}-delivered`, external_status: "active" };
  };

  return {
    driver,
    calls,
    fulfillWith: (next) => {
      outcome = next;
    },
    failWith: (error) => {
      failure = error;
    },
    count: (method) => calls.filter((call) => call.method === method).length,

    async fulfill(context) {
      calls.push({ method: "fulfill", recordId: context.record.id });
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    syncStatus: act("syncStatus"),
    suspend: act("suspend"),
    cancel: act("cancel"),
    ...(optional.resume ? { resume: act("resume") } : {}),
    ...(optional.renew ? { renew: act("renew") } : {}),
    ...(optional.completeTask ? { completeTask } : {}),
  };
}

/** One recording adapter per driver: the registry the router is given. */
export function createRecordingAdapters(
  optional?: OptionalMethods,
): Readonly<Record<FulfillmentDriver, RecordingFulfillmentAdapter>> {
  const entries = FULFILLMENT_DRIVERS.map((driver) => [driver, createRecordingFulfillmentAdapter(driver, optional)]);
  return Object.fromEntries(entries) as Record<FulfillmentDriver, RecordingFulfillmentAdapter>;
}
