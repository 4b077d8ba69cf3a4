import { InvalidWebhookPayload } from "../../../domain/payments/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { createFieldReader, type Fields } from "./stripe-fields.ts";

/** Field checks over a webhook body: anything missing or mistyped refuses the event. */
export const readEvent = createFieldReader((reason) => {
  throw new InvalidWebhookPayload(reason);
});

/** What every neutral event of gateway_b starts with. */
export interface StripeEnvelope {
  readonly gateway: "gateway_b";
  readonly event_id: string;
  readonly livemode: boolean | null;
}

/** Checkouts, subscriptions and one-time charges carry the marketplace's order in `metadata.order_id`. */
export const metadataOrderId = (object: Fields): string | null => {
  const metadata = object.metadata;
  return isRecord(metadata) ? readEvent.optionalString(metadata, "order_id") : null;
};
