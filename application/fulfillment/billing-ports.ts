import type { TransactionScope } from "../shared/unit-of-work.ts";
import type { SubscriptionRecord } from "./subscription-ports.ts";

/**
 * What fulfillment asks of payments when an admin cancels the last delivery a subscription bills:
 * to stop the billing at its gateway, in the transaction that found it was the last.
 */
export type EndSubscriptionBilling = (
  scope: TransactionScope,
  subscription: SubscriptionRecord,
  reason: string,
) => Promise<void>;
