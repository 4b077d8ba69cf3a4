import { makeVariantPrices } from "../../application/catalog/variant-prices.ts";
import { orderFulfillment } from "../../application/fulfillment/order-fulfillment.ts";
import { makeAdminOrders } from "../../application/payments/admin-orders.ts";
import { makeEndGatewaySubscription } from "../../application/payments/end-gateway-subscription.ts";
import { makeGatewayBreakers } from "../../application/payments/gateway-breakers.ts";
import { makeGatewayProductSync } from "../../application/payments/gateway-product-sync.ts";
import { makeGatewaySettingsAdmin, type SettingsPatch } from "../../application/payments/gateway-settings.ts";
import { endGatewaySubscriptionJob, paymentEventJob, settleRefundJob } from "../../application/payments/jobs.ts";
import { LONGEST_GATEWAY_TIMEOUT_SECONDS } from "../../application/payments/ports.ts";
import { makeProcessPaymentEvent } from "../../application/payments/process-payment-event.ts";
import { makeReceiveWebhook } from "../../application/payments/receive-webhook.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { defaultGatewaySettings } from "../config/gateway-defaults.ts";
import { createPaddleGateway } from "../gateways/gateway-a/paddle-client.ts";
import { createStripeGateway } from "../gateways/gateway-b/stripe-client.ts";
import { createGatewaySettingsSource } from "../gateways/gateway-settings-source.ts";
import { toAdminOrderDetailsBody } from "../http/order-serializers.ts";
import { createPostgresGatewayBreakerStore } from "../postgres/gateway-breaker-store.ts";
import { createPostgresGatewayDiscountRefs } from "../postgres/gateway-discount-refs.ts";
import { createPostgresGatewayProductRefs } from "../postgres/gateway-product-refs.ts";
import { createPostgresGatewaySettingsRepository } from "../postgres/gateway-settings-repository.ts";
import { createPostgresOrderRepository } from "../postgres/order-repository.ts";
import { createPostgresSubscriptionRepository } from "../postgres/subscription-repository.ts";
import { createPostgresWebhookInboxReader } from "../postgres/webhook-inbox-reader.ts";
import { createPostgresWebhookInboxWriter } from "../postgres/webhook-inbox-writer.ts";
import { withOutboundGuard } from "../upstream/gateway-outbound.ts";
import type { CatalogFeature } from "./catalog.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { Platform } from "./platform.ts";

/** Both gateways, their settings, webhooks in and the payment job, orders, refunds and subscriptions. */
export function wirePayments(platform: Platform, { catalog }: { readonly catalog: CatalogFeature["catalog"] }) {
  const { config, logger: log, sql, changes, wake, secrets, secretUses, urls, outbound, mutex, uow, clock } = platform;
  const repository = createPostgresGatewaySettingsRepository(sql, defaultGatewaySettings(config));
  const hosts = config.gatewayHosts;
  const settings = createGatewaySettingsSource({ repository, secrets, changes, hosts });
  const guarded = withOutboundGuard(settings, outbound);
  const paddle = createPaddleGateway({
    settings: guarded,
    discountRefs: createPostgresGatewayDiscountRefs(sql),
    mutex,
  });
  const gateways = { gateway_a: paddle, gateway_b: createStripeGateway({ settings: guarded }) };
  const orders = createPostgresOrderRepository(sql);
  const refs = createPostgresGatewayProductRefs(sql);
  const subscriptions = createPostgresSubscriptionRepository(sql);
  const prices = makeVariantPrices(catalog);
  const admin = makeGatewaySettingsAdmin({ repository, secrets, changes, gateways, urls, hosts, uses: secretUses });
  const sync = makeGatewayProductSync({ ...catalog, catalog: paddle, refs, settings, mutex });
  const adminOrders = makeAdminOrders({ orders, gateways, uow, clock, log, fulfillment: orderFulfillment });
  // Webhooks are stored by group commit: concurrent arrivals share one transaction.
  const intake = createPostgresWebhookInboxWriter({ sql, wake });
  const breakers = makeGatewayBreakers({
    store: createPostgresGatewayBreakerStore(sql),
    policy: {
      failures: config.gatewayBreaker.failures,
      cooldownMs: config.gatewayBreaker.cooldownSeconds * 1000,
      // A checkout's session is a few calls at most, each within the longest time-out a gateway may have.
      trialLeaseMs: 3 * LONGEST_GATEWAY_TIMEOUT_SECONDS * 1000,
    },
    clock,
  });
  const breakersOf = async (gateway: PaymentGatewayName) =>
    (await breakers.list())
      .filter((breaker) => breaker.gateway === gateway)
      .map(({ gateway: _, opened_at, ...breaker }) => ({ ...breaker, opened_at: opened_at?.toISOString() ?? null }));
  return {
    gateways,
    breakers,
    prices,
    settings,
    orders,
    refs,
    subscriptions,
    useCases: {
      describeGatewaySettings: async (gateway: PaymentGatewayName) => ({
        ...(await admin.describe(gateway)),
        breakers: await breakersOf(gateway),
      }),
      updateGatewaySettings: async (gateway: PaymentGatewayName, patch: SettingsPatch, actorId: string) => ({
        ...(await admin.update(gateway, patch, actorId)),
        breakers: await breakersOf(gateway),
      }),
      /** Every gateway's breaker in each environment, for the admin pages and `/metrics`. */
      listGatewayBreakers: breakers.list,
      testGatewayConnection: admin.testConnection,
      createGatewayAProduct: sync.createRemoteProduct,
      syncGatewayAProduct: sync.syncProduct,
      listAdminOrders: adminOrders.list,
      getAdminOrder: adminOrders.get,
      refundOrder: async (
        orderId: string,
        request: { payment_id?: string; amount?: number },
        actorId: string,
        key: string | undefined,
      ) =>
        toAdminOrderDetailsBody(
          await adminOrders.refund(orderId, request, actorId, key === undefined ? null : `${actorId}:${key}`),
        ),
      approveOrder: adminOrders.approve,
      receiveWebhook: makeReceiveWebhook({ gateways, intake, log }),
    },
    jobs: {
      [paymentEventJob.kind]: makeProcessPaymentEvent({
        inbox: createPostgresWebhookInboxReader(sql),
        subscriptions,
        gateways,
        uow,
        clock,
        log,
        fulfillment: orderFulfillment,
        prices,
      }),
      [endGatewaySubscriptionJob.kind]: makeEndGatewaySubscription({ subscriptions, uow, gateways, clock, log }),
      [settleRefundJob.kind]: adminOrders.settleRefund,
    } satisfies FeatureJobs,
  };
}

export type PaymentsFeature = ReturnType<typeof wirePayments>;
