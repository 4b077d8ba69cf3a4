import { describe, expect, test } from "bun:test";
import { tokenFor } from "../support/auth.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  FAST_JOBS,
  failOnboarding,
  fulfillmentReaches,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  tenantsAtSimulator,
  useE2e,
} from "../support/e2e.ts";

const db = useTestDatabase();
// Jitter pinned to its maximum, so each delay is exactly base * 2^(attempt - 1), capped.
const e2e = useE2e(db, { random: () => 1 });
const BASE = Number(FAST_JOBS.JOB_BACKOFF_BASE_MS);
const CAP = Number(FAST_JOBS.JOB_BACKOFF_MAX_MS);
const MAX_ATTEMPTS = Number(FAST_JOBS.JOB_MAX_ATTEMPTS);

describe("provider failures", () => {
  test("500 twice then success: active, with attempts and last_error recorded", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    await failOnboarding(e2e, { mode: "error", status: 500, count: 2 });
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    const record = await fulfillmentReaches(db, orderId, "active", 5000);
    expect(record).toMatchObject({ status: "active", attempts: 3 });
    expect(record.last_error).toContain("HTTP 500");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  });

  test("failing every time: failed after JOB_MAX_ATTEMPTS with growing backoff, a notification and a dead job; an admin retry then delivers once", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    await failOnboarding(e2e, { mode: "error", status: 500, count: MAX_ATTEMPTS });
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const record = await fulfillmentReaches(db, orderId, "failed", 8000);
    expect(record).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(record.last_error).toContain("HTTP 500");

    const failures = e2e.logs
      .map((line) => JSON.parse(line) as { msg: string; order_id?: string; time: string })
      .filter((line) => line.msg === "fulfillment attempt failed" && line.order_id === orderId)
      .map((line) => Date.parse(line.time));
    expect(failures).toHaveLength(MAX_ATTEMPTS);
    const gaps = failures.slice(1).map((at, i) => at - (failures[i] ?? at));
    gaps.forEach((gap, i) => {
      const delay = Math.min(CAP, BASE * 2 ** i);
      expect(gap).toBeGreaterThanOrEqual(delay);
      expect(gap).toBeLessThan(delay + 1000);
    });

    const notifications = await http(e2e.url, "GET", "/api/notifications", { token: customer.token });
    await eventually(
      async () => {
        const list = await http(e2e.url, "GET", "/api/notifications", { token: customer.token });
        return list.body.items.some((n: { kind: string }) => n.kind === "fulfillment.failed");
      },
      3000,
      "a fulfillment.failed notification",
    );
    expect(notifications.status).toBe(200);

    const admin = await tokenFor("admin");
    const dead = await http(e2e.url, "GET", "/api/admin/jobs?state=dead&kind=fulfill&limit=100", { token: admin });
    expect(
      dead.body.items.some((job: { payload: { fulfillment_id: string } }) => job.payload.fulfillment_id === record.id),
    ).toBeTrue();

    const retried = await http(e2e.url, "POST", `/api/admin/fulfillments/${record.id}/retry`, { token: admin });
    expect(retried.body.status).toBe("queued");
    await eventually(
      async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active",
      3000,
      "delivery after retry",
    );
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
    const list = await http(e2e.url, "GET", "/api/notifications", { token: customer.token });
    await eventually(
      async () => {
        const again = await http(e2e.url, "GET", "/api/notifications", { token: customer.token });
        return again.body.items.some((n: { kind: string }) => n.kind === "fulfillment.ready");
      },
      3000,
      "a fulfillment.ready notification",
    );
    expect(list.status).toBe(200);
  });

  test("a customer can retry their own failed delivery, and nobody else's", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const stranger = await registerCustomer(e2e);
    await failOnboarding(e2e, { mode: "error", status: 500, count: MAX_ATTEMPTS });
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    const record = await fulfillmentReaches(db, orderId, "failed", 8000);
    const foreign = await http(e2e.url, "POST", `/api/fulfillments/${record.id}/retry`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    const own = await http(e2e.url, "POST", `/api/fulfillments/${record.id}/retry`, { token: customer.token });
    expect(own.body.status).toBe("queued");
    await eventually(
      async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active",
      3000,
      "delivery after retry",
    );
  });
});
