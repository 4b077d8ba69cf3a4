import { aLicenseProduct } from "../builders/products.ts";
import { createProduct, registerCustomer } from "../e2e.ts";
import type { Case, Fixtures } from "./fixtures.ts";

const suffix = () => crypto.randomUUID().slice(0, 8);

/** Activations a license holds: what the machine routes add and remove. */
const machines = (f: Fixtures, licenseId: string) =>
  f.one(f.sql()<{ n: number }[]>`select count(*)::int n from license_activations where license_id = ${licenseId}`);

/** A machine's request by license key, anonymous: its effect is the license's activations. */
const byKey =
  (action: string, options: { activated?: boolean; config?: object; body?: object; expected?: number } = {}): Case =>
  async (f) => {
    const { key, licenseId } = await f.license({ config: { max_activations: 3, ...options.config } });
    const fingerprint = `fp-${suffix()}`;
    if (options.activated) await f.as("POST", "/api/licenses/activate", "", { key, fingerprint });
    const held = await machines(f, licenseId);
    return {
      path: `/api/licenses/${action}`,
      body: { key, fingerprint, ...options.body },
      count: async () => Math.abs((await machines(f, licenseId)) - held),
      expected: options.expected ?? 1,
    };
  };

const subscriptionFlag = (f: Fixtures, id: string) =>
  f.one(f.sql()<{ n: number }[]>`select count(*)::int n from subscriptions where id = ${id} and cancel_at_period_end`);

/** Every mutating customer (and licensed machine's) route, keyed as the API document names it. */
export const CUSTOMER_CASES: Readonly<Record<string, Case>> = {
  "POST /api/me/password": async (f) => {
    const customer = await registerCustomer(f.e2e);
    const hashes = () => f.sql()<{ h: string }[]>`select password_hash h from users where id = ${customer.id}`;
    const before = (await hashes())[0]?.h;
    return {
      path: "/api/me/password",
      token: customer.token,
      body: { current_password: "customer password", new_password: `a new password ${suffix()}` },
      count: async () => ((await hashes())[0]?.h === before ? 0 : 1),
    };
  },
  "POST /api/me/email": async (f) => {
    const customer = await registerCustomer(f.e2e);
    const email = `moved-${suffix()}@example.com`;
    return {
      path: "/api/me/email",
      token: customer.token,
      body: { password: "customer password", email },
      // The link is sent by a job: one job for the new address.
      count: () => f.jobsNaming(email),
    };
  },
  "POST /api/checkout/calculate": async (f) => {
    const product = await createProduct(f.e2e, aLicenseProduct());
    return {
      path: "/api/checkout/calculate",
      body: { items: [{ product_id: product.id, variant: "regular" }] },
      count: () => f.one(f.sql()<{ n: number }[]>`select count(*)::int n from orders`),
      expected: 0,
    };
  },
  "POST /api/checkout/create": async (f) => {
    const product = await createProduct(f.e2e, aLicenseProduct());
    const customer = await registerCustomer(f.e2e);
    return {
      path: "/api/checkout/create",
      token: customer.token,
      body: { items: [{ product_id: product.id, variant: "regular" }], payment_gateway: "gateway_b" },
      count: () =>
        f.one(f.sql()<{ n: number }[]>`select count(*)::int n from orders where customer_id = ${customer.id}`),
    };
  },
  "POST /api/licenses/{id}/upgrade": async (f) => {
    const customer = await registerCustomer(f.e2e);
    const { licenseId } = await f.license({ buyer: customer, product: { price_extended: 9900 } });
    return {
      path: `/api/licenses/${licenseId}/upgrade`,
      token: customer.token,
      body: { variant: "extended" },
      count: () =>
        f.one(f.sql()<{ n: number }[]>`select count(*)::int n from orders where customer_id = ${customer.id}`),
    };
  },
  "POST /api/fulfillments/{id}/retry": async (f) => {
    const { customer, record } = await f.saas();
    await f.sql()`update fulfillment_records set status = 'failed', last_error = 'down' where id = ${record.id}`;
    return {
      path: `/api/fulfillments/${record.id}/retry`,
      token: customer.token,
      count: () => f.jobsNaming(record.id),
    };
  },
  "POST /api/fulfillments/{id}/customer-input": async (f) => {
    const { customer, record } = await f.dedicated();
    return {
      path: `/api/fulfillments/${record.id}/customer-input`,
      token: customer.token,
      body: { domain: `shop-${suffix()}.example.com` },
      count: () => f.jobsNaming(record.id),
    };
  },
  "POST /api/notifications/read-all": async (f) => {
    const customer = await registerCustomer(f.e2e);
    await f.license({ buyer: customer });
    await f.notificationsSettled(customer.id);
    const unread = () =>
      f.one(f.sql()<{ n: number }[]>`
        select count(*)::int n from notifications where customer_id = ${customer.id} and read_at is null`);
    const before = await unread();
    return {
      path: "/api/notifications/read-all",
      token: customer.token,
      count: async () => before - (await unread()),
      expected: before,
    };
  },
  "POST /api/notifications/{id}/read": async (f) => {
    const customer = await registerCustomer(f.e2e);
    await f.license({ buyer: customer });
    await f.notificationsSettled(customer.id);
    const [note] = await f.sql()<{ id: string }[]>`
      select id from notifications where customer_id = ${customer.id} and read_at is null limit 1`;
    return {
      path: `/api/notifications/${note?.id}/read`,
      token: customer.token,
      count: () =>
        f.one(
          f.sql()<
            { n: number }[]
          >`select count(*)::int n from notifications where id = ${note?.id ?? ""} and read_at is not null`,
        ),
    };
  },
  "DELETE /api/licenses/{id}/machines/{machine_id}": async (f) => {
    const { key, licenseId, customer } = await f.license({ config: { max_activations: 3 } });
    const machine = (await f.as("POST", "/api/licenses/activate", "", { key, fingerprint: `fp-${suffix()}` })) as {
      activation?: { id: string };
      machine?: { id: string };
    };
    const [row] = await f.sql()<{ id: string }[]>`select id from license_activations where license_id = ${licenseId}`;
    const id = machine.activation?.id ?? machine.machine?.id ?? row?.id;
    return {
      path: `/api/licenses/${licenseId}/machines/${id}`,
      token: customer.token,
      count: async () => 1 - (await machines(f, licenseId)),
    };
  },
  "POST /api/licenses/activate": byKey("activate"),
  "POST /api/licenses/deactivate": byKey("deactivate", { activated: true }),
  "POST /api/licenses/heartbeat": byKey("heartbeat", { activated: true, expected: 0 }),
  "POST /api/licenses/checkout": byKey("checkout", {
    activated: true,
    config: { offline_checkout_max_days: 30 },
    body: { ttl_days: 7 },
    expected: 0,
  }),
  "POST /api/licenses/validate": byKey("validate", { expected: 0 }),
  ...subscriptionCases(),
};

function subscriptionCases(): Record<string, Case> {
  return {
    "POST /api/subscriptions/{id}/cancel": async (f) => {
      const { customer, subscription } = await f.saas();
      return {
        path: `/api/subscriptions/${subscription.id}/cancel`,
        token: customer.token,
        count: () => subscriptionFlag(f, subscription.id),
      };
    },
    "POST /api/subscriptions/{id}/resume": async (f) => {
      const { customer, subscription } = await f.saas();
      // The gateway reports the cancellation by webhook. Acted on during the resume, its job reads
      // the subscription again (the resume moved it), so the count would read a state still moving.
      await f.afterSubscriptionEvent(subscription.gateway_subscription_id, () =>
        f.as("POST", `/api/subscriptions/${subscription.id}/cancel`, customer.token),
      );
      return {
        path: `/api/subscriptions/${subscription.id}/resume`,
        token: customer.token,
        count: async () => 1 - (await subscriptionFlag(f, subscription.id)),
      };
    },
    "POST /api/subscriptions/{id}/change-plan": async (f) => {
      const { customer, subscription } = await f.saas();
      return {
        path: `/api/subscriptions/${subscription.id}/change-plan`,
        token: customer.token,
        body: { variant: "yearly" },
        // The record follows the plan the gateway answers with, now or pending.
        count: () =>
          f.one(f.sql()<{ n: number }[]>`
            select count(*)::int n from subscriptions
            where id = ${subscription.id} and 'yearly' in (billing_interval, pending_interval)`),
      };
    },
    "POST /api/subscriptions/{id}/billing-portal": async (f) => {
      const { customer, subscription } = await f.saas();
      // The portal's link is the answer; nothing is stored.
      return {
        path: `/api/subscriptions/${subscription.id}/billing-portal`,
        token: customer.token,
        count: () => subscriptionFlag(f, subscription.id),
        expected: 0,
      };
    },
  };
}
