import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { InvalidWebhookPayload } from "../../domain/payments/errors.ts";
import { encodeGatewayEvent } from "../../domain/payments/gateway-event-codec.ts";
import type { Log } from "../shared/clock-and-log.ts";
import type { WebhookInboxWriter } from "./inbox-ports.ts";
import { paymentEventJob } from "./jobs.ts";
import type { PaymentGateway, WebhookRequest } from "./ports.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Read only after the signature matched the bytes; a byte-order mark is dropped, invalid UTF-8 refused. */
function decodeVerifiedBody(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidWebhookPayload("not UTF-8");
  }
}

/**
 * The signature is checked on the raw bytes before anything is parsed, so nothing unsigned is ever
 * read. The event is normalized once, here: the inbox keeps it (and the raw body, for audit) and
 * its job is enqueued in the same transaction; the answer waits for that commit. A repeat of an
 * event is acknowledged and changes nothing. Events no flow cares about are kept but start no job.
 */
export function makeReceiveWebhook(deps: {
  gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  intake: WebhookInboxWriter;
  log: Log;
}) {
  return async function receiveWebhook(gateway: PaymentGatewayName, request: WebhookRequest) {
    const adapter = deps.gateways[gateway];
    const { environment } = await adapter.verifyWebhook(request);
    const text = decodeVerifiedBody(request.rawBody);
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      throw new InvalidWebhookPayload("not JSON");
    }
    const event = adapter.normalizeWebhookPayload(payload);
    const stored = encodeGatewayEvent(event);
    const result = await deps.intake.accept(
      {
        gateway,
        event_id: event.event_id,
        environment,
        event_type: event.kind === "ignored" ? event.type : event.kind,
        kind: event.kind,
        payload: text,
        event: stored,
      },
      event.kind === "ignored" ? null : (inboxId) => paymentEventJob({ inbox_id: inboxId }),
    );
    if (event.kind === "ignored" && event.not_ours) {
      deps.log.info(
        { gateway, event_id: event.event_id, type: event.type, reason: event.not_ours },
        "gateway event not ours; ignored",
      );
    }
    deps.log.info(
      {
        gateway,
        event_id: event.event_id,
        kind: event.kind,
        environment,
        order_id: "order_id" in event ? event.order_id : null,
        payment_id: "payment" in event ? event.payment.payment_id : null,
        duplicate: result.duplicate,
      },
      "payment webhook received",
    );
    return { received: true as const, duplicate: result.duplicate };
  };
}
