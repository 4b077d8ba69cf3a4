import { describe, expect, test } from "bun:test";
import { createExpiringLinkSigner } from "../../../adapters/security/expiring-links.ts";
import { makeBillingPortal } from "../../../application/customers/billing-portal.ts";
import { makeEmailedLinks } from "../../../application/customers/emailed-links.ts";
import { UpstreamServerError } from "../../../application/shared/errors.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemorySubscriptionRepository } from "../../support/fakes/in-memory-subscription-repository.ts";

const NOW = new Date("2026-11-28T12:00:00.000Z");

function setUp() {
  const subscriptions = createInMemorySubscriptionRepository();
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  let now = NOW;
  const portal = makeBillingPortal({
    subscriptions,
    gateways,
    links: makeEmailedLinks({
      signer: createExpiringLinkSigner("a-secret-of-at-least-thirty-two-characters", "billing-portal"),
      clock: () => now,
      publicBaseUrl: "https://shop.example",
      ttlSeconds: 3600,
    }),
    returnUrl: "https://shop.example/account",
  });
  const ada = subscriptions.add({ customer_id: "cus-ada", gateway: "gateway_b", gateway_subscription_id: "sub_ada" });
  gateways.gateway_b.addSubscription("sub_ada");
  return {
    portal,
    subscriptions,
    gateways,
    ada,
    later: (seconds: number) => (now = new Date(NOW.getTime() + seconds * 1000)),
  };
}

const linkParts = (link: string) => {
  const url = new URL(link);
  return { expiresAt: Number(url.searchParams.get("expires")), access: url.searchParams.get("access") ?? "" };
};

describe("the billing portal", () => {
  test("opens a fresh gateway session for the subscriber's own subscription, leading back to the account", async () => {
    const { portal, gateways, ada } = setUp();
    expect(await portal.open("cus-ada", ada.id)).toEqual({ url: "https://portal.gateway_b.test/sub_ada" });
    await portal.open("cus-ada", ada.id);
    expect(gateways.gateway_b.callsOf("billingPortalUrl")).toEqual([
      ["sub_ada", "https://shop.example/account"],
      ["sub_ada", "https://shop.example/account"],
    ]);
  });

  test("another customer's subscription is not found; an ended or unconfirmed one is refused; the gateway is not asked", async () => {
    const { portal, subscriptions, gateways, ada } = setUp();
    await expect(portal.open("cus-bob", ada.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_NOT_FOUND" });
    const ended = subscriptions.add({ customer_id: "cus-ada", status: "cancelled" });
    await expect(portal.open("cus-ada", ended.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_CANCELLED" });
    const unconfirmed = subscriptions.add({ customer_id: "cus-ada", gateway_subscription_id: null });
    await expect(portal.open("cus-ada", unconfirmed.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_UNCONFIRMED" });
    expect(gateways.gateway_b.callsOf("billingPortalUrl")).toEqual([]);
  });

  test("a gateway failure comes back as it is", async () => {
    const { portal, gateways, ada } = setUp();
    gateways.gateway_b.fail("billingPortalUrl", new UpstreamServerError("gateway", 503));
    await expect(portal.open("cus-ada", ada.id)).rejects.toBeInstanceOf(UpstreamServerError);
  });

  test("an emailed link opens it without signing in until it expires; a changed link is not found", async () => {
    const { portal, ada, later } = setUp();
    const link = await portal.link(ada.id);
    expect(link.startsWith(`https://shop.example/api/subscriptions/${ada.id}/billing-portal?expires=`)).toBe(true);
    const { expiresAt, access } = linkParts(link);
    expect(expiresAt).toBe(NOW.getTime() / 1000 + 3600);
    expect(await portal.openByLink(ada.id, { expiresAt, access })).toEqual({
      url: "https://portal.gateway_b.test/sub_ada",
    });
    await expect(portal.openByLink(ada.id, { expiresAt: expiresAt + 86_400, access })).rejects.toMatchObject({
      code: "SUBSCRIPTION_NOT_FOUND",
    });
    await expect(portal.openByLink(crypto.randomUUID(), { expiresAt, access })).rejects.toMatchObject({
      code: "SUBSCRIPTION_NOT_FOUND",
    });
    await expect(portal.openByLink(ada.id, { expiresAt: Number.NaN, access })).rejects.toMatchObject({
      code: "SUBSCRIPTION_NOT_FOUND",
    });
    later(3601);
    await expect(portal.openByLink(ada.id, { expiresAt, access })).rejects.toMatchObject({ code: "LINK_EXPIRED" });
  });
});
