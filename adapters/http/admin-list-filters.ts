import { t } from "elysia";
import type { OrderFilter } from "../../application/checkout/ports.ts";
import { LICENSE_STATUSES } from "../../application/licensing/admin-ports.ts";
import { ORDER_STATUSES } from "../../domain/orders/order-status.ts";
import { GatewaySchema } from "./catalog-schemas.ts";
import { oneOf } from "./shared-schemas.ts";

/**
 * The filters of the admin lists, as query parameters: each list and its CSV export take the same
 * schema, so a filter the list refuses the export refuses too, before any row is read.
 */

const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
/** Query text reaches SQL: no control characters (PostgreSQL refuses a NUL outright). */
const NO_CONTROL = "^[^\\u0000-\\u001f\\u007f]*$";

export const OrderListFilter = t.Object({
  status: t.Optional(oneOf(ORDER_STATUSES)),
  payment_gateway: t.Optional(GatewaySchema),
  needs_attention: t.Optional(oneOf(["true", "false"])),
});

/** The order filter a query asks for: `needs_attention` read as the boolean it names. */
export function orderFilterOf(query: typeof OrderListFilter.static): OrderFilter {
  const { needs_attention, ...rest } = query;
  return needs_attention === undefined ? rest : { ...rest, needs_attention: needs_attention === "true" };
}

export const LicenseListFilter = t.Object({
  customer_email: t.Optional(t.String({ minLength: 3, maxLength: 254, pattern: NO_CONTROL })),
  product_id: t.Optional(t.String({ pattern: UUID_PATTERN, description: "A product id" })),
  status: t.Optional(oneOf(LICENSE_STATUSES)),
  key_prefix: t.Optional(
    t.String({
      minLength: 30,
      maxLength: 4096,
      pattern: NO_CONTROL,
      description:
        "The start of the key, 30 characters or more (every key begins with the same 23), matched against the current key and the one it replaced",
    }),
  ),
});
