import { expect, test } from "bun:test";
import { createLogger } from "../../../../kit/logger.ts";
import { createSimClock } from "../../../../provider-sim/clock.ts";
import { createFaultQueue } from "../../../../provider-sim/faults.ts";
import {
  createGatewaySandboxes,
  createGatewaySandboxRoutes,
} from "../../../../provider-sim/gateways/gateway-sandboxes.ts";
import { eventType, routeTypes } from "../../../../scripts/lib/gateway-types/type-map.ts";

const settings = { apiKey: "key", webhookSecret: "secret" };

test("every route of both sandbox APIs has its official types, so none goes unchecked", () => {
  const sandboxes = createGatewaySandboxes({
    logger: createLogger({ level: "silent" }),
    clock: createSimClock(Date.now),
    wallTime: Date.now,
    publicUrl: "http://sim.test",
    marketplaceUrl: "http://127.0.0.1:9",
    gatewayA: settings,
    gatewayB: settings,
  });
  const routes = createGatewaySandboxRoutes(sandboxes, createFaultQueue())
    .routes.map((route) => ({ method: route.method, match: /^\/(gateway_a|gateway_b)(\/.*)$/.exec(route.path) }))
    .flatMap(({ method, match }) => (match ? [[match[1], method, match[2]?.replace(/:(\w+)/g, "{$1}")] as const] : []));

  expect(routes.length).toBeGreaterThan(20);
  const unmapped = routes.filter(
    ([gateway, method, route]) => !routeTypes(gateway as "gateway_a", method, route ?? ""),
  );
  expect(unmapped).toEqual([]);
});

test("events map to the packages' own event types", () => {
  expect(eventType("gateway_b", "customer.subscription.deleted")).toBe("Stripe.CustomerSubscriptionDeletedEvent");
  expect(eventType("gateway_b", "invoice_payment.paid")).toBe("Stripe.InvoicePaymentPaidEvent");
  expect(eventType("gateway_a", "transaction.completed")).toBe(
    'PaddleEvent<Paddle.ITransactionNotificationResponse, "transaction.completed">',
  );
  expect(eventType("gateway_a", "subscription.created")).toBe(
    'PaddleEvent<Paddle.ISubscriptionCreatedNotificationResponse, "subscription.created">',
  );
  expect(eventType("gateway_a", "payout.paid")).toBeUndefined();
});
