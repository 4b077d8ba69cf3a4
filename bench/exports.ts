import type postgres from "postgres";
import type { Row } from "./report.ts";
import { JWT_SECRET, rssMb, watchPeakRss } from "./services.ts";
import { round } from "./tools.ts";

export interface ExportFigures {
  readonly rows: number;
  readonly bytes: number;
  /** The marketplace's resident memory once warm, before the export. */
  readonly rss_before_mb: number;
  /** Its peak while a client read the whole CSV file. */
  readonly peak_rss_mb: number;
  readonly rss_growth_mb: number;
  readonly seconds: number;
}

/** A session token of an admin account written straight into the table (HS256, as the server signs them). */
async function adminToken(sql: postgres.Sql): Promise<string> {
  const [admin] = await sql<{ id: string }[]>`
    insert into users (email, password_hash, name, role)
    values (${`bench-export-${crypto.randomUUID()}@example.com`}, 'x', 'Bench export', 'admin') returning id`;
  if (!admin) throw new Error("no bench admin");
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: admin.id, role: "admin", iss: "marketplace", iat: now, exp: now + 3600 })}`;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(JWT_SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

/**
 * `count` paid orders of one customer, each with an item and a payment, written in one statement;
 * the customer's name needs quoting and defusing, as a real one may.
 */
async function seed(sql: postgres.Sql, productId: string, count: number) {
  const [buyer] = await sql<{ id: string }[]>`
    insert into users (email, password_hash, name, role)
    values (${`bench-export-buyer-${crypto.randomUUID()}@example.com`}, 'x', '=Bench, "Buyer"', 'customer')
    returning id`;
  if (!buyer) throw new Error("no bench buyer");
  await sql`
    with o as (
      insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                          gateway_environment, metadata, created_at)
      select ${buyer.id}, 'paid', 'USD', 2900, 2900, 2900, 'gateway_b', 'sandbox', '{}',
             now() - g * interval '1 second'
      from generate_series(1, ${count}) g
      returning id, created_at
    ), i as (
      insert into order_items (order_id, position, product_id, product_name, variant, payment_type, billing_interval,
                               unit_price, quantity, amount, due_today, delivery_model, fulfillment_driver, options)
      select id, 0, ${productId}, 'Tillpoint POS', 'monthly', 'subscription', 'monthly', 2900, 1, 2900, 2900,
             'saas_multitenant', 'multitenant_saas', '{}' from o
    )
    insert into payments (order_id, gateway, payment_id, amount, tax, currency, created_at)
    select id, 'gateway_b', 'pi_bench_export_' || id, 2900, 0, 'USD', created_at from o`;
  // What autovacuum does within a minute of such a load on a running shop: without statistics the
  // planner takes the tables for empty and sorts all of them for every page.
  await sql`analyze orders, order_items, payments, users`;
}

/** Reads a whole answer as it arrives, keeping nothing but the counts. */
async function drain(response: Response): Promise<{ bytes: number; lines: number }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  let lines = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    for (const byte of read.value) if (byte === 10) lines++;
  }
  return { bytes, lines };
}

/**
 * Seeds `rows` paid orders with their payments, then streams `orders.csv` and `payments.csv` of all
 * of them to a client on loopback, one after the other: the marketplace's peak resident memory over
 * each (`VmHWM`) against its memory before, which shows whether the rows pass through or pile up.
 */
export async function measureExports(options: {
  sql: postgres.Sql;
  marketplace: { url: string; proc: { pid: number } };
  productId: string;
  rows: number;
  say: (line: string) => void;
}): Promise<Record<"orders" | "payments", ExportFigures>> {
  await seed(options.sql, options.productId, options.rows);
  const token = await adminToken(options.sql);
  const get = (name: string, query = "") =>
    fetch(`${options.marketplace.url}/api/admin/exports/${name}.csv${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const pid = options.marketplace.proc.pid;
  const figures: Partial<Record<"orders" | "payments", ExportFigures>> = {};
  for (const name of ["orders", "payments"] as const) {
    // Warm: one whole export unmeasured, as a running shop's path is (JIT, prepared statements,
    // the allocator's pages); the figure is then what a download adds to a warm process.
    await drain(await get(name));
    await Bun.sleep(200);
    const before = await rssMb(pid);
    const peak = await watchPeakRss(pid);
    const started = performance.now();
    const response = await get(name);
    const { bytes, lines } = await drain(response);
    const seconds = (performance.now() - started) / 1000;
    const peakMb = await peak.stop();
    // The header line and at least every seeded row (other figures' paid orders may add more).
    if (response.status !== 200 || lines < options.rows + 1) {
      throw new Error(`${name}.csv answered ${response.status} with ${lines} lines for ${options.rows} rows`);
    }
    const figure: ExportFigures = {
      rows: lines - 1,
      bytes,
      rss_before_mb: round(before, 1),
      peak_rss_mb: round(peakMb, 1),
      rss_growth_mb: round(peakMb - before, 1),
      seconds: round(seconds, 2),
    };
    options.say(
      `${name}.csv: ${figure.rows} rows, ${round(bytes / 1024 / 1024, 1)} MB in ${figure.seconds} s; RSS ${figure.rss_before_mb} MB before, peak ${figure.peak_rss_mb} MB (+${figure.rss_growth_mb})`,
    );
    figures[name] = figure;
  }
  const { orders, payments } = figures;
  if (!orders || !payments) throw new Error("an export was not measured");
  return { orders, payments };
}

/** The table's rows of the export figures: each export's growth against `bound`. */
export function exportRows(figures: Readonly<Record<string, ExportFigures>>, bound: { readonly max: number }): Row[] {
  return Object.entries(figures).map(([name, figure]) => [
    `marketplace RSS growth while a client downloads \`${name}.csv\` of ${figure.rows.toLocaleString("en-US")} rows`,
    `${figure.rss_growth_mb} MB (${figure.rss_before_mb} → ${figure.peak_rss_mb} MB; ${figure.seconds} s)`,
    figure.rss_growth_mb,
    bound,
    " MB",
  ]);
}
