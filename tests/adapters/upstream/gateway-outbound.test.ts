import { afterAll, expect, test } from "bun:test";
import { createPaddleGateway } from "../../../adapters/gateways/gateway-a/paddle-client.ts";
import { createStripeGateway } from "../../../adapters/gateways/gateway-b/stripe-client.ts";
import {
  connectToAnyAddress,
  createGuardedFetch,
  OutboundUrlRefused,
} from "../../../adapters/security/guarded-fetch.ts";
import { outboundFor, withOutboundGuard } from "../../../adapters/upstream/gateway-outbound.ts";
import { UpstreamUrlNotAllowed } from "../../../application/shared/errors.ts";
import { countingListener } from "../../support/counting-listener.ts";
import { createStaticGatewaySettings } from "../../support/fakes/static-gateway-settings.ts";

const { hits, server: trap } = countingListener(() => Response.json({}, { status: 500 }));
afterAll(() => trap.stop(true));

const loopback = createStaticGatewaySettings({
  gateway_a: { base_url: `http://127.0.0.1:${trap.port}/paddle` },
  gateway_b: { base_url: `http://localhost:${trap.port}/stripe` },
});

test("settings resolved through the guarded source carry its guard; a copy that lost it connects nowhere", async () => {
  const guard = createGuardedFetch({ allowPrivate: false });
  const other = createGuardedFetch({ allowPrivate: true });
  const guarded = await withOutboundGuard(loopback, guard).resolve("gateway_a");
  const open = await withOutboundGuard(loopback, other).resolve("gateway_a");
  expect(outboundFor(guarded)).toBe(guard);
  expect(outboundFor(open)).toBe(other);
  expect(outboundFor(await loopback.resolve("gateway_a"))).toBe(connectToAnyAddress);
  const copy = { ...guarded };
  const refusal = await outboundFor(copy)(`http://127.0.0.1:${trap.port}/paddle`).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(OutboundUrlRefused);
  expect(hits).toEqual([]);
});

test("both gateways refuse a private base URL at call time, without connecting", async () => {
  const settings = withOutboundGuard(loopback, createGuardedFetch({ allowPrivate: false }));
  for (const gateway of [createPaddleGateway({ settings }), createStripeGateway({ settings })]) {
    const error = await gateway.getSubscription("sub_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUrlNotAllowed);
    expect(error).toMatchObject({ code: "URL_NOT_ALLOWED", transient: false, upstream: "gateway" });
  }
  expect(hits).toEqual([]);
});
