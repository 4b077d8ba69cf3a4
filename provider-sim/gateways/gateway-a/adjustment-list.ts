import { csv } from "./pagination.ts";
import type { PaddleAdjustment } from "./transaction-model.ts";

/** The filters of Paddle's `GET /adjustments` (`ListAdjustmentQueryParameters`); each takes a comma-separated list. */
export interface AdjustmentQuery {
  readonly id?: string | undefined;
  readonly action?: string | undefined;
  readonly transaction_id?: string | undefined;
  readonly subscription_id?: string | undefined;
  readonly customer_id?: string | undefined;
  readonly status?: string | undefined;
}

/** The adjustments a list request asks for, in the order they were made. */
export function selectAdjustments(all: readonly PaddleAdjustment[], query: AdjustmentQuery): PaddleAdjustment[] {
  const wanted = (value: string | undefined) => {
    const allowed = csv(value);
    return (candidate: string | null) => allowed === undefined || (candidate !== null && allowed.includes(candidate));
  };
  const id = wanted(query.id);
  const action = wanted(query.action);
  const transaction = wanted(query.transaction_id);
  const subscription = wanted(query.subscription_id);
  const customer = wanted(query.customer_id);
  const status = wanted(query.status);
  return all.filter(
    (adjustment) =>
      id(adjustment.id) &&
      action(adjustment.action) &&
      transaction(adjustment.transaction_id) &&
      subscription(adjustment.subscription_id ?? null) &&
      customer(adjustment.customer_id) &&
      status(adjustment.status),
  );
}
