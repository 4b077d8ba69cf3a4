import { t } from "elysia";
import { Int, QueryInt } from "../kit/schema-types.ts";
import { FAULT_MODES, FAULT_ROUTES } from "./faults.ts";
import { BILLING_INTERVALS } from "./plans.ts";
import { TENANT_STATUSES } from "./tenant.ts";

/** A union of literals; unlike t.UnionEnum, Elysia leaves an absent optional one absent. */
function literals<const T extends readonly [string, ...string[]]>(values: T) {
  return t.Union(values.map((value) => t.Literal(value))) as unknown as ReturnType<typeof t.UnionEnum<T>>;
}

const closed = { additionalProperties: false } as const;
const Identifier = t.String({ minLength: 1, maxLength: 100 });

export const TenantStatusSchema = literals(TENANT_STATUSES);

/** The request bodies of openapi/provider.yaml; the handlers pass them on as its generated types. */
export const OnboardRequestSchema = t.Object(
  {
    order_id: Identifier,
    order_item_id: Identifier,
    product_ref: t.String({ minLength: 1, maxLength: 200 }),
    plan: Identifier,
    billing_interval: t.Optional(literals(BILLING_INTERVALS)),
    trial_days: t.Optional(Int({ minimum: 1, maximum: 365 })),
    customer: t.Object(
      {
        id: Identifier,
        email: t.String({ format: "email", maxLength: 254 }),
        name: t.String({ minLength: 1, maxLength: 200 }),
      },
      closed,
    ),
  },
  closed,
);

export const ReferenceRequestSchema = t.Object({ external_reference_id: Identifier }, closed);

export const ReasonRequestSchema = t.Object(
  { external_reference_id: Identifier, reason: t.Optional(t.String({ maxLength: 500 })) },
  closed,
);

export const UpgradeRequestSchema = t.Object(
  {
    external_reference_id: Identifier,
    plan: Identifier,
    billing_interval: t.Optional(literals(BILLING_INTERVALS)),
    current_period_end: t.Optional(t.String({ format: "date-time" })),
  },
  closed,
);

/** Open: a query parameter the contract does not know (a cache buster, say) is ignored, not refused. */
export const TenantPageQuerySchema = t.Object(
  {
    status: t.Optional(TenantStatusSchema),
    cursor: t.Optional(t.String({ maxLength: 200 })),
    limit: t.Optional(QueryInt({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: true },
);

export const FaultRequestSchema = t.Object(
  {
    route: literals(FAULT_ROUTES),
    mode: literals(FAULT_MODES),
    // Up to a load test's worth of calls (a latency fault over every onboarding of a benchmark, say).
    count: Int({ minimum: 1, maximum: 100_000 }),
    status: t.Optional(Int({ minimum: 400, maximum: 599 })),
    delay_ms: t.Optional(Int({ minimum: 0, maximum: 60_000 })),
    retry_after_s: t.Optional(Int({ minimum: 0, maximum: 86_400 })),
  },
  closed,
);

export const ClockRequestSchema = t.Object(
  { advance_seconds: Int({ minimum: 0, maximum: 10 * 366 * 86_400 }) },
  closed,
);
