import { aDedicatedInstallationProduct, aLicenseProduct, aManagedSetupProduct } from "../builders/products.ts";
import type { TestDatabaseHandle } from "../database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  type E2e,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
} from "../e2e.ts";
import { aBoughtLicense } from "../licenses.ts";
import { subscriptionOf } from "../subscriptions.ts";

/** One request a case sends twice under one key, and how its effect is counted. */
export interface Prepared {
  readonly path: string;
  readonly token?: string;
  readonly body?: unknown;
  /** The effect so far: rows the request makes, changes or removes. */
  count(): Promise<number>;
  /** What one run adds to `count`: 1, or 0 for a route whose only effect is its answer. */
  readonly expected?: number;
}

export type Case = (fixtures: Fixtures) => Promise<Prepared>;

const one = async (rows: Promise<readonly { n: number }[]>) => Number((await rows)[0]?.n ?? 0);

/** What the cases build their requests on, over real HTTP, the simulator and PostgreSQL. */
export function fixtures(e2e: E2e, db: TestDatabaseHandle) {
  const sql = () => db.current.sql;
  const admin = async () => {
    const token = await adminToken(e2e);
    const id = JSON.parse(atob(token.split(".")[1] ?? "")).sub as string;
    return {
      token,
      id,
      audited: () => one(sql()<{ n: number }[]>`select count(*)::int n from audit_log where actor_id = ${id}`),
    };
  };
  const as = async (method: string, path: string, token: string, body?: unknown) => {
    const answer = await http(e2e.url, method, path, { token, ...(body === undefined ? {} : { body }) });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** A bought point-of-sale subscription: its customer, order, active fulfillment and subscription. */
  const saas = async (gateway: "gateway_a" | "gateway_b" = "gateway_b") => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], gateway);
    const record = await fulfillmentReaches(db, orderId, "active", 10_000);
    const subscription = await eventually(
      () => subscriptionOf(db, orderId).catch(() => undefined),
      5000,
      "subscription",
    );
    return { product, customer, orderId, record, subscription };
  };
  const manualTask = async () => {
    const product = await createProduct(
      e2e,
      aManagedSetupProduct({ sla_hours: 48, instructions_template: "Set up {{customer_email}}" }),
    );
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    return eventually(
      async () => {
        const [task] = await sql()<{ id: string }[]>`
        select t.id from ops_tasks t join fulfillment_records r on r.id = t.fulfillment_record_id
        where r.order_id = ${orderId} and t.status = 'open'`;
        return task?.id;
      },
      10_000,
      "a manual task",
    );
  };
  const dedicated = async () => {
    const product = await createProduct(
      e2e,
      aDedicatedInstallationProduct({ name: `Dedicated ${crypto.randomUUID()}` }),
    );
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const record = await eventually(
      async () => {
        const [row] = await sql()<{ id: string; status: string }[]>`
        select id, status from fulfillment_records where order_id = ${orderId}`;
        return row?.status === "awaiting_customer" ? row : undefined;
      },
      10_000,
      "a delivery waiting for a domain",
    );
    return { customer, record };
  };
  const license = (options: Parameters<typeof aBoughtLicense>[2] = {}) => aBoughtLicense(e2e, db, options);
  /** The gateway's events that a subscription changed: acted on, and still waiting. */
  const subscriptionEvents = async (gatewaySubscriptionId: string) => {
    const [row] = await sql()<{ done: number; waiting: number }[]>`
      select count(*) filter (where processed_at is not null)::int done,
             count(*) filter (where processed_at is null)::int waiting
      from webhook_inbox
      where kind = 'subscription_updated' and event->'event'->>'subscription_id' = ${gatewaySubscriptionId}`;
    return row ?? { done: 0, waiting: 0 };
  };
  /** Runs `change`, then waits until the gateway's event about it has arrived and every one is acted on. */
  const afterSubscriptionEvent = async (gatewaySubscriptionId: string, change: () => Promise<unknown>) => {
    const before = await subscriptionEvents(gatewaySubscriptionId);
    await change();
    await eventually(
      async () => {
        const now = await subscriptionEvents(gatewaySubscriptionId);
        // A new event arrived (not only an older one acted on), and none waits.
        return now.done + now.waiting > before.done + before.waiting && now.waiting === 0 ? now : undefined;
      },
      10_000,
      "the gateway's subscription event",
    );
  };
  /**
   * Waits until the customer's notifications are all written: a job delivers each one from the
   * outbox after the purchase, so a case that counts them must not start before it has.
   */
  const notificationsSettled = (customerId: string) =>
    eventually(
      async () => {
        const [row] = await sql()<{ listed: number; pending: number }[]>`
          select (select count(*)::int from notifications where customer_id = ${customerId}) listed,
                 (select count(*)::int from outbox
                  where dispatched_at is null and payload->>'customer_id' = ${customerId}) pending`;
        return row && row.listed > 0 && row.pending === 0 ? row : undefined;
      },
      10_000,
      "the customer's notifications",
    );
  const licenseProduct = () => createProduct(e2e, aLicenseProduct());
  /** Jobs whose payload names `id`: what a retry or a delivery asks of the worker. */
  const jobsNaming = (id: string) =>
    one(sql()<{ n: number }[]>`select count(*)::int n from jobs where payload::text like ${`%${id}%`}`);
  return {
    e2e,
    sql,
    admin,
    as,
    saas,
    manualTask,
    dedicated,
    license,
    licenseProduct,
    notificationsSettled,
    afterSubscriptionEvent,
    jobsNaming,
    one,
  };
}

export type Fixtures = ReturnType<typeof fixtures>;
