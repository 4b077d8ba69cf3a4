/** Job kinds of the fulfillment flow; the worker's handler table is keyed by these. */
export const FULFILL_JOB = "fulfill";
export const FULFILLMENT_ACTION_JOB = "fulfillment_action";
export const NOTIFY_JOB = "notify";
