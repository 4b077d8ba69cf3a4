/**
 * How long an admin's refund reservation is held, and when the settle job looks at it
 * (docs/decisions/refund-reservations.md).
 */

import { LONGEST_GATEWAY_TIMEOUT_SECONDS, REFUND_ATTEMPT_MAX_CALLS } from "./ports.ts";

/** How long one asker holds a reservation: every call of one attempt at the longest time-out, and a minute. */
export const REFUND_CLAIM_SECONDS = REFUND_ATTEMPT_MAX_CALLS * LONGEST_GATEWAY_TIMEOUT_SECONDS + 60;

/**
 * How long a reservation is held after an attempt whose outcome is unknown: a request cut off may
 * still be running at the gateway, and what it made may show in the gateway's lists only later.
 */
export const UNKNOWN_OUTCOME_HOLD_SECONDS = 3 * LONGEST_GATEWAY_TIMEOUT_SECONDS;

/** When the settle job first looks at a reservation: after any request still asking has given up. */
export const SETTLE_REFUND_AFTER_MS = (REFUND_CLAIM_SECONDS + 300) * 1000;
