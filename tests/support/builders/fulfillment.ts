import type { Sql } from "../../../adapters/postgres/database.ts";
import { createPostgresOrderRepository } from "../../../adapters/postgres/order-repository.ts";
import { createPostgresProductRepository } from "../../../adapters/postgres/product-repository.ts";
import type { FulfillmentContext, SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import type { Variant } from "../../../domain/catalog/variants.ts";
import type { SelectedOptions } from "../../../domain/checkout/checkout-options.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";
import { aDedicatedInstallationProduct, aManagedSetupProduct } from "./products.ts";

const unique = () => crypto.randomUUID().slice(0, 8);

export function aManualProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  return aManagedSetupProduct(
    { sla_hours: 48, instructions_template: "Set up {{product_name}} for {{customer_name}}." },
    { name: `Managed setup ${unique()}`, ...overrides },
  );
}

export function aSingletenantProduct(
  config: Record<string, unknown> = {},
  overrides: Partial<ProductInput> = {},
): ProductInput {
  return aDedicatedInstallationProduct({
    name: `Dedicated ${unique()}`,
    fulfillment_config: {
      server_profile: "vm-small",
      resource_limits_profile: "limits-standard",
      domain_strategy: "customer_domain",
      ...config,
    },
    ...overrides,
  });
}

export interface ItemOverrides {
  readonly variant?: Variant;
  readonly quantity?: number;
  readonly license_type?: string | null;
  readonly options?: SelectedOptions;
}

/**
 * A paid order of one item of a new product, its customer and a `processing` fulfillment record,
 * stored for real and assembled into what the context loader would hand an adapter. Monthly and
 * yearly items come with a subscription whose period ends `periodEnd`.
 */
export async function aFulfillmentContext(
  sql: Sql,
  input: {
    product: ProductInput;
    item?: ItemOverrides;
    periodEnd?: Date;
    customerInput?: Readonly<Record<string, string>> | null;
  },
): Promise<FulfillmentContext> {
  const product = await createPostgresProductRepository(sql).insert(validateProduct(input.product));
  if (!product) throw new Error("product insert failed");
  const [customer] = await sql<{ id: string; email: string; name: string; emailVerified: boolean }[]>`
    insert into users (email, name, role, password_hash)
    values (${`buyer-${unique()}@example.com`}, 'Ada Buyer', 'customer', 'not-a-hash')
    returning id, email, name, email_verified_at is not null as "emailVerified"`;
  if (!customer) throw new Error("user insert failed");

  const variant = input.item?.variant ?? (product.is_recurring ? "monthly" : "regular");
  const subscription = variant === "monthly" || variant === "yearly";
  const quantity = input.item?.quantity ?? 1;
  const [order] = await sql<{ id: string }[]>`
    insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway, gateway_environment, metadata)
    values (${customer.id}, 'paid', 'USD', ${1000 * quantity}, ${1000 * quantity}, ${1000 * quantity}, 'gateway_b', 'sandbox', '{}')
    returning id`;
  if (!order) throw new Error("order insert failed");
  await sql`
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, license_type,
                             billing_interval, unit_price, quantity, amount, trial_days, due_today, delivery_model,
                             fulfillment_driver, options)
    values (${order.id}, 0, ${product.id}, ${product.name}, ${variant}, ${subscription ? "subscription" : "one_time"},
            ${input.item?.license_type === undefined ? (subscription ? null : variant) : input.item.license_type},
            ${subscription ? variant : null}, 1000, ${quantity}, ${1000 * quantity}, null, ${1000 * quantity},
            ${product.delivery_model}, ${product.fulfillment_driver},
            ${sql.json((input.item?.options ?? {}) as Record<string, string>)})`;
  const details = await createPostgresOrderRepository(sql).find(order.id);
  const item = details?.items[0];
  if (!details || !item) throw new Error("order read-back failed");

  const [record] = await sql<FulfillmentRecord[]>`
    insert into fulfillment_records (order_id, order_item_id, product_id, customer_id, driver, status, attempts)
    values (${order.id}, ${item.id}, ${product.id}, ${customer.id}, ${product.fulfillment_driver}, 'processing', 1)
    returning id, order_id, order_item_id, product_id, customer_id, driver, status, external_reference_id,
              external_workspace_url, external_customer_id, external_status, attempts, last_error, payload_snapshot,
              created_at, updated_at`;
  if (!record) throw new Error("fulfillment record insert failed");

  const [subscriptionRow] = subscription
    ? await sql<SubscriptionRecord[]>`
        insert into subscriptions (order_id, order_item_id, customer_id, product_id, gateway, gateway_subscription_id,
                                   status, billing_interval, current_period_end)
        values (${order.id}, ${item.id}, ${customer.id}, ${product.id}, 'gateway_b', ${`sub_${unique()}`}, 'active',
                ${variant}, ${input.periodEnd ?? new Date(Date.now() + 30 * 86_400_000)})
        returning id, order_id, order_item_id, customer_id, product_id, gateway, gateway_subscription_id, status,
                  billing_interval, trial_ends_at, current_period_end, cancelled_at, cancel_at_period_end`
    : [];

  return {
    record,
    order: details.order,
    item,
    product,
    customer,
    payment: null,
    subscription: subscriptionRow ?? null,
    customerInput: input.customerInput ?? null,
  };
}

/** The same context after the record moved on (what the loader would read next time). */
export function withRecord(context: FulfillmentContext, change: Partial<FulfillmentRecord>): FulfillmentContext {
  return { ...context, record: { ...context.record, ...change } };
}
