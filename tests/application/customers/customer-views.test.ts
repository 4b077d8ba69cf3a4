import { describe, expect, test } from "bun:test";
import { makeCustomerViews } from "../../../application/customers/customer-views.ts";
import type { CustomerInstallation, CustomerLicense, DashboardRow } from "../../../application/customers/ports.ts";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import type { DiscountedItem } from "../../../domain/discounts/apply.ts";
import { createInMemoryCustomerReadModel } from "../../support/fakes/in-memory-customer-read-model.ts";
import { createInMemoryDownloadLinks } from "../../support/fakes/in-memory-download-links.ts";
import { createInMemoryFulfillmentRepository } from "../../support/fakes/in-memory-fulfillment-repository.ts";
import { createInMemoryOrderRepository } from "../../support/fakes/in-memory-order-repository.ts";

const ADA = "cus-ada";
const BOB = "cus-bob";
const BOUGHT = new Date("2026-05-04T10:00:00.000Z");

function setup() {
  const subscriptions: SubscriptionRecord[] = [];
  const readModel = createInMemoryCustomerReadModel({ subscriptions: () => subscriptions });
  const orders = createInMemoryOrderRepository();
  const fulfillments = createInMemoryFulfillmentRepository();
  const downloads = createInMemoryDownloadLinks();
  const access = {
    sign: async (orderId: string) => `signed-${orderId}`,
    verify: async (orderId: string, token: string) => token === `signed-${orderId}`,
  };
  const views = makeCustomerViews({ readModel, orders, fulfillments, downloads, access });

  const item: DiscountedItem = {
    product_id: "prod-ledger",
    product_name: "Ledger",
    variant: "regular",
    payment_type: "one_time",
    license_type: "regular",
    billing_interval: null,
    unit_price: 4900,
    quantity: 1,
    amount: 4900,
    trial_days: null,
    due_today: 4900,
    discount: 0,
    delivery_model: "self_hosted_license",
    fulfillment_driver: "license_download",
    options: {},
  };
  const anOrder = async (customerId: string) =>
    orders.create({
      customer_id: customerId,
      payment_gateway: "gateway_b",
      gateway_environment: "sandbox",
      tax_behavior: "exclusive",
      metadata: "{}",
      totals: {
        items: [item],
        subtotal: 4900,
        total: 4900,
        due_today: 4900,
        currency: "EUR",
        discount_total: 0,
        discount: null,
      },
    });

  return { views, readModel, orders, fulfillments, downloads, subscriptions, anOrder };
}

const aRow = (overrides: Partial<DashboardRow> = {}): DashboardRow => ({
  order_id: "ord-1",
  order_status: "paid",
  payment_gateway: "gateway_b",
  checkout_url: null,
  order_item_id: "item-1",
  product_id: "prod-ledger",
  product_name: "Ledger",
  delivery_model: "self_hosted_license",
  driver: "license_download",
  variant: "regular",
  fulfillment_id: "ful-1",
  status: "active",
  awaiting: null,
  external_status: null,
  workspace_url: null,
  license_key: null,
  max_activations: null,
  activations: null,
  entitlement_id: null,
  task_due_at: null,
  created_at: BOUGHT,
  ...overrides,
});

const aLicense = (overrides: Partial<CustomerLicense> = {}): CustomerLicense => ({
  id: "lic-1",
  product_id: "prod-ledger",
  product_name: "Ledger",
  license_type: "regular",
  license_key: "MKT1.key",
  max_activations: 3,
  activations: 1,
  floating: false,
  offline_checkout_max_days: 0,
  expires_at: null,
  status: "active",
  entitlement_id: "ent-1",
  created_at: BOUGHT,
  ...overrides,
});

describe("dashboard", () => {
  test("shows each purchased item with where it stands and what the customer can do next", async () => {
    const { views, readModel } = setup();
    readModel.addDashboardRow(
      ADA,
      aRow({
        order_id: "ord-unpaid",
        order_status: "pending_payment",
        checkout_url: "https://checkout.test/cs_1",
        fulfillment_id: null,
        status: null,
      }),
    );
    readModel.addDashboardRow(
      ADA,
      aRow({
        order_id: "ord-saas",
        driver: "multitenant_saas",
        delivery_model: "saas_multitenant",
        workspace_url: "https://acme.pos.example.com",
        external_status: "active",
      }),
    );
    const { items, next_cursor } = await views.dashboard(ADA);
    expect(next_cursor).toBeNull();
    expect(items).toEqual([
      expect.objectContaining({
        order_id: "ord-unpaid",
        status: "pending_payment",
        next_action: { kind: "pay", label: expect.any(String), url: "https://checkout.test/cs_1" },
        purchased_at: "2026-05-04T10:00:00.000Z",
      }),
      expect.objectContaining({
        order_id: "ord-saas",
        status: "active",
        external_status: "active",
        next_action: { kind: "open_workspace", label: expect.any(String), url: "https://acme.pos.example.com" },
      }),
    ]);
  });

  test("a delivered license offers a fresh download link bound to the customer, with its activations", async () => {
    const { views, readModel, downloads } = setup();
    readModel.addDashboardRow(
      ADA,
      aRow({ license_key: "MKT1.key", max_activations: 3, activations: 2, entitlement_id: "ent-1" }),
    );
    const [item] = (await views.dashboard(ADA)).items;
    expect(downloads.issued).toEqual([
      { entitlement_id: "ent-1", customer_id: ADA, url: expect.stringMatching(/^https:\/\/shop\.test\//) },
    ]);
    expect(item?.next_action).toMatchObject({
      kind: "download",
      url: downloads.issued[0]?.url,
      license_key: "MKT1.key",
      activations_used: 2,
      max_activations: 3,
    });
  });

  test("a license without a download entitlement gets no link", async () => {
    const { views, readModel, downloads } = setup();
    readModel.addDashboardRow(ADA, aRow({ license_key: "MKT1.key", max_activations: 3, activations: null }));
    const [item] = (await views.dashboard(ADA)).items;
    expect(item?.next_action).toMatchObject({ kind: "download", activations_used: 0 });
    expect(item?.next_action).not.toHaveProperty("url");
    expect(downloads.issued).toEqual([]);
  });

  test("an item waiting on the team says when it is due", async () => {
    const { views, readModel } = setup();
    readModel.addDashboardRow(
      ADA,
      aRow({ status: "manual_pending", driver: "manual_fulfillment", task_due_at: new Date("2026-05-06T10:00:00Z") }),
    );
    const [item] = (await views.dashboard(ADA)).items;
    expect(item?.next_action).toMatchObject({ kind: "wait_for_team", due_at: "2026-05-06T10:00:00.000Z" });
  });

  test("shows only the customer's own items", async () => {
    const { views, readModel } = setup();
    readModel.addDashboardRow(BOB, aRow({ order_id: "ord-bob" }));
    readModel.addDashboardRow(ADA, aRow({ order_id: "ord-ada" }));
    expect((await views.dashboard(ADA)).items.map((i) => i.order_id)).toEqual(["ord-ada"]);
  });
});

describe("orders", () => {
  test("lists the customer's own orders, newest first, a page at a time", async () => {
    const { views, anOrder } = setup();
    const first = await anOrder(ADA);
    await anOrder(BOB);
    const second = await anOrder(ADA);
    const third = await anOrder(ADA);
    const page = await views.orders(ADA, { limit: 2 });
    expect(page.items.map((o) => o.id)).toEqual([third.order.id, second.order.id]);
    const rest = await views.orders(ADA, { limit: 2, cursor: page.next_cursor ?? "" });
    expect(rest.items.map((o) => o.id)).toEqual([first.order.id]);
    expect(rest.next_cursor).toBeNull();
  });
});

describe("order", () => {
  test("shows the customer's own order with its items and its deliveries only", async () => {
    const { views, anOrder, fulfillments } = setup();
    const { order, items } = await anOrder(ADA);
    const other = await anOrder(ADA);
    await fulfillments.createQueued(order, items);
    await fulfillments.createQueued(other.order, other.items);
    const details = await views.order(ADA, order.id);
    expect(details.order).toEqual(order);
    expect(details.items).toEqual(items);
    expect(details.fulfillments.map((f) => [f.order_id, f.order_item_id, f.status])).toEqual([
      [order.id, items[0]?.id ?? "", "queued"],
    ]);
  });

  test("another customer's order is ORDER_NOT_FOUND, never a refusal that confirms it exists", async () => {
    const { views, anOrder } = setup();
    const { order } = await anOrder(BOB);
    await expect(views.order(ADA, order.id)).rejects.toMatchObject({ code: "ORDER_NOT_FOUND", category: "not_found" });
  });

  test("an unknown order is ORDER_NOT_FOUND", async () => {
    await expect(setup().views.order(ADA, crypto.randomUUID())).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
  });
});

describe("licenses", () => {
  test("lists the customer's licenses, each downloadable one with a fresh link bound to the customer", async () => {
    const { views, readModel, downloads } = setup();
    readModel.addLicense(ADA, aLicense({ id: "lic-1", entitlement_id: "ent-1" }));
    readModel.addLicense(ADA, aLicense({ id: "lic-2", entitlement_id: null }));
    readModel.addLicense(BOB, aLicense({ id: "lic-bob" }));
    const licenses = await views.licenses(ADA);
    expect(licenses.map((l) => [l.id, l.download_url])).toEqual([
      ["lic-1", downloads.issued[0]?.url ?? "no link issued"],
      ["lic-2", null],
    ]);
    expect(downloads.issued.map((d) => [d.entitlement_id, d.customer_id])).toEqual([["ent-1", ADA]]);
    expect(await downloads.verify(downloads.issued[0]?.url.split("/").at(-1) ?? "")).toEqual({
      ok: true,
      entitlement_id: "ent-1",
      customer_id: ADA,
    });
  });
});

describe("subscriptions and installations", () => {
  test("list the customer's own only", async () => {
    const { views, readModel, subscriptions } = setup();
    readModel.nameProduct("prod-pos", "Point of Sale");
    const subscription = (id: string, customer_id: string): SubscriptionRecord => ({
      id,
      order_id: "ord-1",
      order_item_id: `item-${id}`,
      customer_id,
      product_id: "prod-pos",
      gateway: "gateway_b",
      gateway_subscription_id: `sub_${id}`,
      status: "active",
      billing_interval: "monthly",
      trial_ends_at: null,
      current_period_end: new Date("2026-06-04T10:00:00Z"),
      cancelled_at: null,
      cancel_at_period_end: false,
      pending_interval: null,
      pending_at: null,
    });
    subscriptions.push(subscription("s-ada", ADA), subscription("s-bob", BOB));
    const installation = (id: string): CustomerInstallation => ({
      id,
      fulfillment_record_id: "ful-1",
      product_id: "prod-crm",
      product_name: "CRM",
      domain: "crm.example.com",
      url: "https://crm.example.com",
      status: "active",
      created_at: BOUGHT,
    });
    readModel.addInstallation(ADA, installation("inst-ada"));
    readModel.addInstallation(BOB, installation("inst-bob"));

    expect((await views.subscriptions(ADA)).map((s) => [s.id, s.product_name])).toEqual([["s-ada", "Point of Sale"]]);
    expect((await views.installations(ADA)).map((i) => i.id)).toEqual(["inst-ada"]);
  });
});
