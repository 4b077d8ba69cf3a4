import { PAYMENT_GATEWAYS, type PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { Log } from "../shared/clock-and-log.ts";
import { CredentialsNotFound } from "../shared/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import type { retireDiscountJob } from "./jobs.ts";

/**
 * A disabled code is taken off every gateway, so nothing there can apply it to a new checkout;
 * subscriptions holding it keep it, as both gateways do. A gateway with no credentials set up never
 * received the code. Any other failure throws, and the job retries.
 */
export function makeRetireDiscount(deps: {
  readonly gateways: Readonly<Record<PaymentGatewayName, Pick<PaymentGateway, "retireDiscount">>>;
  readonly log: Log;
}): JobHandler<typeof retireDiscountJob> {
  return async function retireDiscount({ discount_id }) {
    for (const gateway of PAYMENT_GATEWAYS) {
      try {
        await deps.gateways[gateway].retireDiscount(discount_id);
        deps.log.info({ discount_id, gateway }, "discount retired at the gateway");
      } catch (error) {
        if (!(error instanceof CredentialsNotFound)) throw error;
        deps.log.info({ discount_id, gateway }, "gateway not set up: no discount to retire there");
      }
    }
  };
}
