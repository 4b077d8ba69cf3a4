import { Elysia, t } from "elysia";
import type { OrderFilter } from "../../application/checkout/ports.ts";
import type { AdminLicense, AdminLicenseFilter } from "../../application/licensing/admin-ports.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import type { Logger } from "../../kit/logger.ts";
import { type CsvColumn, csvStream, EXPORT_PAGE_ROWS, type PageReader } from "../exports/csv-stream.ts";
import { LICENSE_EXPORT_COLUMNS, ORDER_EXPORT_COLUMNS, PAYMENT_EXPORT_COLUMNS } from "../exports/export-columns.ts";
import type { OrderExportRow, PaymentExportRow } from "../postgres/export-readers.ts";
import { LicenseListFilter, OrderListFilter, orderFilterOf } from "./admin-list-filters.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";

export interface AdminExportDeps {
  readonly auth: AuthOptions;
  readonly logger: Logger;
  exportOrders(filter: OrderFilter, page: PageRequest): Promise<Page<OrderExportRow>>;
  exportPayments(filter: OrderFilter, page: PageRequest): Promise<Page<PaymentExportRow>>;
  listAdminLicenses(filter: AdminLicenseFilter, page: PageRequest): Promise<Page<AdminLicense>>;
}

const CSV_TYPE = "text/csv";

const FAILURE_NOTE =
  "A bad filter is a `422` problem before any row is sent; a failure after the first row cuts the transfer off (no final chunk), so a broken download never looks complete.";

/** The document maps the TypeBox schemas; the plugin's types expect plain JSON Schema there. */
const csvResponses = (description: string) => ({
  200: {
    description: `${description}: RFC 4180, CRLF line ends, a header row; text that could start a formula begins with \`'\``,
    headers: { "Content-Disposition": { description: "attachment; filename=…", schema: { type: "string" as const } } },
    content: {
      [CSV_TYPE]: {
        schema: t.String({ contentMediaType: CSV_TYPE }) as unknown as Record<string, never>,
      },
    },
  },
});

/** What a download of the export `name` is told before its bytes, GET and HEAD alike. */
function csvHeaders(name: string): Record<string, string> {
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "").replace("T", "-");
  return {
    "content-type": `${CSV_TYPE}; charset=utf-8`,
    "content-disposition": `attachment; filename="${name}-${stamp}.csv"`,
  };
}

/**
 * A HEAD has routes of its own: through the GET route, Elysia would count the streamed body for
 * `Content-Length`, reading every row. It is checked as the GET is (sign-in, API key scope, the
 * filter's `422`) and reads nothing. Its length is not known without the rows, so it names the
 * transfer coding a GET gets instead (RFC 9112, 6.1), where Bun would say `Content-Length: 0`.
 */
const headersOnly = (name: string) =>
  new Response(null, { headers: { ...csvHeaders(name), "transfer-encoding": "chunked" } });

const headDetail = (name: string, operationId: string) => ({
  summary: `The ${name} export's headers without its body: checks access and the filter, reads no rows`,
  operationId,
  responses: {
    200: {
      description: "The headers a GET answers (Content-Type, Content-Disposition, Transfer-Encoding: chunked); no body",
      headers: {
        "Content-Disposition": { description: "attachment; filename=…", schema: { type: "string" as const } },
      },
    },
  },
});

/** Rows from the first page on, `EXPORT_PAGE_ROWS` at a time, through a list's use case. */
const pagesOf =
  <F, T>(list: (filter: F, page: PageRequest) => Promise<Page<T>>, filter: F): PageReader<T> =>
  (cursor) =>
    list(filter, { limit: EXPORT_PAGE_ROWS, ...(cursor ? { cursor } : {}) });

/**
 * The admin lists as CSV files to download: the same filters (admin-list-filters.ts), newest
 * first, every row the filter matches rather than a page. API keys need the read scope of the list
 * each mirrors (api-key-scopes.ts). See docs/decisions/csv-exports.md.
 */
export function createAdminExportRoutes(deps: AdminExportDeps) {
  const answer = async <T>(name: string, columns: readonly CsvColumn<T>[], read: PageReader<T>) => {
    const body = await csvStream(columns, read, (error, rows) =>
      deps.logger.error(
        { err: error, export: name, rows_written: rows },
        "CSV export failed mid-stream; answer cut off",
      ),
    );
    return new Response(body, { headers: csvHeaders(name) });
  };
  return new Elysia({ name: "admin-export-routes", tags: ["admin: exports"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/exports/orders.csv",
          ({ query }) => answer("orders", ORDER_EXPORT_COLUMNS, pagesOf(deps.exportOrders, orderFilterOf(query))),
          {
            query: OrderListFilter,
            detail: {
              summary: "Every order the admin order list's filter matches, newest first, as CSV (streamed)",
              description: `${FAILURE_NOTE} API keys: \`orders:read\`.`,
              operationId: "getApiAdminExportsOrdersCsv",
              responses: csvResponses("The orders, one a line, with their buyer and products"),
            },
          },
        )
        .head("/api/admin/exports/orders.csv", () => headersOnly("orders"), {
          query: OrderListFilter,
          detail: headDetail("orders", "headApiAdminExportsOrdersCsv"),
        })
        .get(
          "/api/admin/exports/payments.csv",
          ({ query }) => answer("payments", PAYMENT_EXPORT_COLUMNS, pagesOf(deps.exportPayments, orderFilterOf(query))),
          {
            query: OrderListFilter,
            detail: {
              summary: "Every payment of the ledger, newest first, as CSV (streamed), filtered by its order",
              description:
                "The filters are the order list's, applied to each payment's order: its status, gateway and attention. " +
                FAILURE_NOTE +
                " API keys: `orders:read`.",
              operationId: "getApiAdminExportsPaymentsCsv",
              responses: csvResponses("The payments, one a line, amounts in minor units"),
            },
          },
        )
        .head("/api/admin/exports/payments.csv", () => headersOnly("payments"), {
          query: OrderListFilter,
          detail: headDetail("payments", "headApiAdminExportsPaymentsCsv"),
        })
        .get(
          "/api/admin/exports/licenses.csv",
          ({ query }) => answer("licenses", LICENSE_EXPORT_COLUMNS, pagesOf(deps.listAdminLicenses, query)),
          {
            query: LicenseListFilter,
            detail: {
              summary: "Every license the admin license list's filter matches, newest first, as CSV (streamed)",
              description: `Keys appear only as their hint, as in the list. ${FAILURE_NOTE} API keys: \`fulfillments:read\`.`,
              operationId: "getApiAdminExportsLicensesCsv",
              responses: csvResponses("The licenses, one a line"),
            },
          },
        )
        .head("/api/admin/exports/licenses.csv", () => headersOnly("licenses"), {
          query: LicenseListFilter,
          detail: headDetail("licenses", "headApiAdminExportsLicensesCsv"),
        }),
    );
}
