import { t } from "elysia";
import { REPORT_INTERVALS } from "../../domain/reports/report-range.ts";
import { Int } from "../../kit/schema-types.ts";
import { GatewaySchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { oneOf, Time, Uuid } from "./shared-schemas.ts";

const money = (description: string) => Int({ description: `${description}, in minor units` });
const day = (description: string) => t.String({ format: "date", description });
const time = (description: string) => t.String({ format: "date-time", description });
const Day = day("A UTC calendar day");
const Environment = oneOf(["live", "sandbox"]);

export const ReportIntervalSchema = named("ReportInterval", oneOf(REPORT_INTERVALS));

const figures = {
  payments: Int({ minimum: 0, description: "Payments counted" }),
  gross: money("What customers paid, after discounts, tax included"),
  discounts: money("What discount codes took off before `gross`"),
  tax: money("The tax held in `gross`"),
  refunds: money("What was refunded of these payments, as of now"),
  charged_back: money("What lost disputes took back of these payments, as of now"),
  net: money("`gross` less `refunds` and `charged_back`"),
};

export const RevenueFiguresSchema = named("RevenueFigures", t.Object(figures));

export const RevenueLedgerSchema = named(
  "RevenueLedger",
  t.Object({
    environment: Environment,
    currency: t.String(),
    total: RevenueFiguresSchema,
    intervals: t.Array(t.Object({ start: Day, end: day("The day after the interval"), ...figures })),
    by_gateway: t.Array(t.Object({ gateway: GatewaySchema, ...figures })),
    by_product: t.Array(t.Object({ product_id: Uuid, product_name: t.String(), ...figures })),
  }),
);

export const RevenueReportSchema = named(
  "RevenueReport",
  t.Object({
    from: Day,
    to: Day,
    interval: ReportIntervalSchema,
    ledgers: t.Array(RevenueLedgerSchema, {
      description: "One per environment and currency, live first; payments are placed by when the ledger recorded them",
    }),
  }),
);

const count = Int({ minimum: 0 });

export const SubscriptionReportSchema = named(
  "SubscriptionReport",
  t.Object({
    at: Time,
    since: time("30 days before `at`: the start of the new and churned MRR window"),
    environments: t.Array(
      t.Object({
        environment: Environment,
        counts: t.Object({ trialing: count, active: count, past_due: count, suspended: count, cancelled: count }),
        inferred: Int({ minimum: 0, description: "Statuses inferred from the records' times rather than read" }),
        mrr: t.Array(
          t.Object({
            currency: t.String(),
            mrr: money("Active and past-due subscriptions' monthly price; yearly ones divided by 12"),
            new_mrr: money("MRR of subscriptions paying at `at` that were not at `since`"),
            churned_mrr: money("MRR of subscriptions paying at `since` and cancelled by `at`"),
          }),
        ),
      }),
    ),
  }),
);
